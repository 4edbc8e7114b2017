'use client';

import { useEffect, useRef, useState, type ReactNode } from 'react';
import { classNames } from './class-names';

/**
 * A box that scrolls sideways when its content is wider than it. While it does, it is a named region the
 * keyboard can Tab to and scroll with the arrow keys (content without links could not be reached
 * otherwise); while everything fits, it is a plain box and adds no Tab stop.
 */
export function ScrollArea({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return (
    <div
      ref={box}
      className={classNames(
        'focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent-600',
        className,
      )}
      {...(scrolls ? { tabIndex: 0, role: 'region', 'aria-label': label } : {})}
    >
      {children}
    </div>
  );
}
