import { API_OPERATIONS, API_TAGS } from '@/lib/openapi/operations';
import { MethodBadge } from './method-badge';

export const GUIDES = [
  { id: 'quick-start', title: 'Quick start' },
  { id: 'authentication', title: 'Authentication and scopes' },
  { id: 'rate-limits', title: 'Rate limits' },
  { id: 'idempotency', title: 'Idempotency' },
  { id: 'pagination', title: 'Pagination' },
  { id: 'errors', title: 'Errors' },
  { id: 'webhooks', title: 'Webhooks' },
  { id: 'testing', title: 'Test cards and helpers' },
] as const;

// at least 28 px tall whatever the font size inside, above the 24 px minimum target of WCAG 2.2 (2.5.8)
const linkClass =
  'flex min-h-7 items-center gap-2 rounded-md px-2 py-1 text-gray-700 hover:bg-gray-100 hover:text-gray-900 focus-visible:outline-2 focus-visible:outline-accent-600';

/** Every guide, every endpoint by group, and every object, from the operations. */
export function Sidebar({ label, objectNames }: { label: string; objectNames: readonly string[] }) {
  return (
    <nav aria-label={label} className="space-y-6 text-sm">
      <NavGroup title="Guides">
        {GUIDES.map((guide) => (
          <li key={guide.id}>
            <a href={`#${guide.id}`} className={linkClass}>
              {guide.title}
            </a>
          </li>
        ))}
      </NavGroup>
      {API_TAGS.map((tag) => (
        <NavGroup key={tag.name} title={tag.name}>
          {API_OPERATIONS.filter((operation) => operation.tag === tag.name).map((operation) => (
            <li key={operation.operationId}>
              <a href={`#${operation.operationId}`} className={linkClass}>
                <MethodBadge method={operation.method} />
                <span>{operation.summary}</span>
              </a>
            </li>
          ))}
        </NavGroup>
      ))}
      <NavGroup title="Objects">
        {objectNames.map((name) => (
          <li key={name}>
            <a href={`#object-${name}`} className={`${linkClass} font-mono text-[13px]`}>
              {name}
            </a>
          </li>
        ))}
      </NavGroup>
    </nav>
  );
}

function NavGroup({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div>
      <p className="px-2 text-xs font-semibold uppercase tracking-wide text-gray-600">{title}</p>
      <ul className="mt-1 space-y-0.5">{children}</ul>
    </div>
  );
}
