'use client';

import { createContext, useContext, useState, type ReactNode } from 'react';

// Whether this page has just paid. The payment panel knows first; the countdown in the header, rendered
// beside it by the server, reads it so "Expires in …" does not keep ticking over "Payment received".

const CheckoutPaid = createContext<{ paid: boolean; markPaid: () => void }>({ paid: false, markPaid: () => {} });

export function CheckoutPaidProvider({ children }: { children: ReactNode }) {
  const [paid, setPaid] = useState(false);
  return <CheckoutPaid.Provider value={{ paid, markPaid: () => setPaid(true) }}>{children}</CheckoutPaid.Provider>;
}

export function useCheckoutPaid() {
  return useContext(CheckoutPaid);
}
