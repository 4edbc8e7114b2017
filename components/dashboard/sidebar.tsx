'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { classNames } from '@/components/ui/class-names';
import {
  CardIcon,
  ClockIcon,
  CloseIcon,
  EventIcon,
  HomeIcon,
  KeyIcon,
  LogIcon,
  MenuIcon,
  PaymentLinkIcon,
  RefundIcon,
  SessionIcon,
  SettingsIcon,
  WebhookIcon,
} from '@/components/ui/icons';
import { PendingIcon } from './link-pending';
import { SignOutButton } from './sign-out-button';

type NavItem = { href: string; label: string; icon: ReactNode; count?: { value: number; meaning: string } };

const MAIN: NavItem[] = [
  { href: '/dashboard', label: 'Home', icon: <HomeIcon /> },
  { href: '/dashboard/payments', label: 'Payments', icon: <CardIcon /> },
  { href: '/dashboard/refunds', label: 'Refunds', icon: <RefundIcon /> },
  { href: '/dashboard/checkout-sessions', label: 'Checkout sessions', icon: <SessionIcon /> },
  { href: '/dashboard/payment-links', label: 'Payment links', icon: <PaymentLinkIcon /> },
];

const DEVELOPERS: NavItem[] = [
  { href: '/dashboard/developers/api-keys', label: 'API keys', icon: <KeyIcon /> },
  { href: '/dashboard/developers/webhooks', label: 'Webhooks', icon: <WebhookIcon /> },
  { href: '/dashboard/developers/events', label: 'Events', icon: <EventIcon /> },
  { href: '/dashboard/developers/logs', label: 'Logs', icon: <LogIcon /> },
  { href: '/dashboard/developers/test-clock', label: 'Test clock', icon: <ClockIcon /> },
];

const SETTINGS: NavItem = { href: '/dashboard/settings', label: 'Settings', icon: <SettingsIcon /> };

function isActive(pathname: string, href: string): boolean {
  return href === '/dashboard' ? pathname === href : pathname === href || pathname.startsWith(`${href}/`);
}

/**
 * The dashboard's navigation: a fixed column from lg up; on smaller screens a top bar whose menu button
 * opens the same links in a panel, which closes again on navigation.
 */
export function Sidebar({
  merchantName,
  email,
  refundsWaiting,
}: {
  merchantName: string;
  email: string;
  /** refunds that wait for the merchant's approval, counted on the Refunds item */
  refundsWaiting: number;
}) {
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  // arriving on another page closes the menu (React's way to reset state when a value changes)
  const [shownFor, setShownFor] = useState(pathname);
  if (shownFor !== pathname) {
    setShownFor(pathname);
    setOpen(false);
  }
  useEffect(() => {
    if (!open) return;
    // Escape closes the open menu, as it does a dialog, and the keyboard goes back to where it was
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener('keydown', closeOnEscape);
    return () => document.removeEventListener('keydown', closeOnEscape);
  }, [open]);

  const links = (
    <>
      <NavList
        items={MAIN.map((item) =>
          item.href === '/dashboard/refunds' && refundsWaiting > 0
            ? { ...item, count: { value: refundsWaiting, meaning: 'waiting for your approval' } }
            : item,
        )}
        pathname={pathname}
      />
      <p className="mt-6 px-3 text-xs font-semibold tracking-wide text-gray-500 uppercase">Developers</p>
      <NavList items={DEVELOPERS} pathname={pathname} className="mt-1" />
      <div className="mt-6 border-t border-gray-200 pt-4">
        <NavList items={[SETTINGS]} pathname={pathname} />
      </div>
    </>
  );

  return (
    <>
      {/* phone and tablet: a labelled region, so the merchant's name is not content outside every landmark */}
      <section aria-label="Account and menu" className="sticky top-0 z-30 border-b border-gray-200 bg-white lg:hidden">
        <div className="flex items-center justify-between gap-3 px-4 py-2.5">
          <MerchantName name={merchantName} />
          <button
            ref={menuButton}
            type="button"
            aria-expanded={open}
            aria-controls="dashboard-menu"
            onClick={() => setOpen((value) => !value)}
            className="inline-flex items-center gap-1.5 rounded-md px-2 py-1.5 text-sm font-medium text-gray-700 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-accent-600"
          >
            {open ? <CloseIcon className="size-5" /> : <MenuIcon className="size-5" />}
            Menu
          </button>
        </div>
        {open && (
          <nav
            id="dashboard-menu"
            aria-label="Dashboard"
            className="max-h-[calc(100dvh-3.5rem)] overflow-y-auto border-t border-gray-100 px-3 pt-3 pb-4"
          >
            {links}
            <UserBox email={email} />
          </nav>
        )}
      </section>

      {/* desktop: the column runs the page's full height; its contents stay in view while the page scrolls */}
      <aside className="hidden w-64 shrink-0 border-r border-gray-200 bg-white lg:block">
        <div className="sticky top-0 flex h-screen flex-col">
          <div className="border-b border-gray-100 px-5 py-4">
            <MerchantName name={merchantName} />
            <p className="mt-1 text-xs text-gray-600">Sandbox account</p>
          </div>
          <nav aria-label="Dashboard" className="flex-1 overflow-y-auto px-3 py-4">
            {links}
          </nav>
          <div className="border-t border-gray-200 px-3 py-3">
            <UserBox email={email} />
          </div>
        </div>
      </aside>
    </>
  );
}

function MerchantName({ name }: { name: string }) {
  return (
    <div className="flex min-w-0 items-center gap-2.5">
      <span
        aria-hidden="true"
        className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-accent-600 text-sm font-semibold text-white"
      >
        {name.trim().charAt(0).toUpperCase() || '?'}
      </span>
      <span className="truncate font-semibold text-gray-900">{name}</span>
    </div>
  );
}

function NavList({ items, pathname, className }: { items: NavItem[]; pathname: string; className?: string }) {
  return (
    <ul className={classNames('space-y-0.5', className)}>
      {items.map((item) => {
        const active = isActive(pathname, item.href);
        return (
          <li key={item.href}>
            <Link
              href={item.href}
              aria-current={active ? 'page' : undefined}
              className={classNames(
                'flex items-center gap-2.5 rounded-md px-3 py-2 text-sm font-medium',
                'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent-600',
                active ? 'bg-accent-50 text-accent-700' : 'text-gray-700 hover:bg-gray-100 hover:text-gray-900',
              )}
            >
              <span className={active ? 'text-accent-700' : 'text-gray-500'}>
                <PendingIcon icon={item.icon} />
              </span>
              {item.label}
              {item.count && (
                <span className="ml-auto rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 tabular-nums">
                  {item.count.value >= 100 ? '99+' : item.count.value}
                  <span className="sr-only"> {item.count.meaning}</span>
                </span>
              )}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

function UserBox({ email }: { email: string }) {
  return (
    <div className="mt-4 flex items-center justify-between gap-2 px-2 lg:mt-0">
      <p className="min-w-0 truncate text-sm text-gray-700" title={email}>
        <span className="sr-only">Signed in as </span>
        {email}
      </p>
      <SignOutButton />
    </div>
  );
}
