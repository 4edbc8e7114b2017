'use client';

import Form from 'next/form';
import type { ReactNode } from 'react';
import { SearchIcon } from '@/components/ui/icons';

// Filters above a table: a GET form, so the filters live in the URL (shareable, back-button friendly)
// and work before JavaScript loads. With JavaScript, choosing an option applies it at once.

export function FilterBar({ action, children }: { action: string; children: ReactNode }) {
  return (
    <Form
      action={action}
      role="search"
      aria-label="Filters"
      className="flex flex-wrap items-end gap-3 border-b border-gray-100 px-4 py-3"
    >
      {children}
      <button
        type="submit"
        className="h-9 rounded-lg border border-gray-300 bg-white px-3 text-sm font-medium text-gray-800 shadow-sm hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-accent-600"
      >
        Apply
      </button>
    </Form>
  );
}

export function FilterSelect({
  name,
  label,
  value,
  options,
}: {
  name: string;
  label: string;
  value: string | undefined;
  options: { value: string; label: string }[];
}) {
  return (
    <label className="flex flex-col gap-1 text-xs font-medium text-gray-600">
      {label}
      <select
        name={name}
        defaultValue={value ?? ''}
        onChange={(event) => event.currentTarget.form?.requestSubmit()}
        className="h-9 min-w-32 rounded-lg border border-gray-300 bg-white px-2 text-sm text-gray-900 shadow-sm focus:outline-2 focus:-outline-offset-1 focus:outline-accent-600"
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

export function FilterDate({ name, label, value }: { name: string; label: string; value: string | undefined }) {
  return (
    <label className="flex flex-col gap-1 text-xs font-medium text-gray-600">
      {label}
      <input
        type="date"
        name={name}
        defaultValue={value ?? ''}
        onChange={(event) => {
          // a half-typed date fires change too; only apply a whole one (or a cleared field)
          if (event.currentTarget.value === '' || /^\d{4}-\d{2}-\d{2}$/.test(event.currentTarget.value))
            event.currentTarget.form?.requestSubmit();
        }}
        className="h-9 rounded-lg border border-gray-300 bg-white px-2 text-sm text-gray-900 shadow-sm focus:outline-2 focus:-outline-offset-1 focus:outline-accent-600"
      />
    </label>
  );
}

export function FilterSearch({
  name,
  label,
  value,
  placeholder,
}: {
  name: string;
  label: string;
  value: string | undefined;
  placeholder: string;
}) {
  return (
    <label className="flex min-w-56 flex-1 flex-col gap-1 text-xs font-medium text-gray-600">
      {label}
      <span className="relative">
        <SearchIcon className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-gray-500" />
        <input
          type="search"
          name={name}
          defaultValue={value ?? ''}
          placeholder={placeholder}
          className="h-9 w-full rounded-lg border border-gray-300 bg-white pr-2 pl-8 text-sm text-gray-900 shadow-sm placeholder:text-gray-500 focus:outline-2 focus:-outline-offset-1 focus:outline-accent-600"
        />
      </span>
    </label>
  );
}
