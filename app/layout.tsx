import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Sandbox Payments', template: '%s · Sandbox Payments' },
  description: 'A sandbox checkout and refund service. No money moves.',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-gray-50 text-gray-900 antialiased">
        {/* the page's banner landmark, so the notice is not stray content outside every landmark */}
        <header className="bg-amber-100 px-4 py-1 text-center text-xs font-medium text-amber-900">
          <p>Sandbox — no real money moves</p>
        </header>
        {children}
      </body>
    </html>
  );
}
