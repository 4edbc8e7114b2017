import { BreakableName } from './breakable-name';
import type { FieldRow } from './schema-fields';
import { DocTable } from './doc-section';
import { InlineMarkdown } from './inline-markdown';

/**
 * The fields of a schema in two columns, so a phone can read it without scrolling sideways: the name with
 * its type (object names link to their description) and whether it is required, then what it means.
 */
export function FieldTable({
  label,
  rows,
  objectNames,
  showRequired,
}: {
  label: string;
  rows: FieldRow[];
  objectNames: ReadonlySet<string>;
  showRequired: boolean;
}) {
  return (
    <DocTable label={label} head={['Field', 'Description']}>
      {rows.map((row) => (
        <tr key={row.name}>
          <NameCell name={row.name} required={showRequired ? row.required : undefined}>
            <TypeLabel type={row.type} objectNames={objectNames} />
          </NameCell>
          <td className="px-3 py-2 align-top text-gray-700">
            {row.description ? (
              <p>
                <InlineMarkdown text={row.description} />
              </p>
            ) : null}
            {row.limits.length > 0 ? (
              <p className="break-words text-xs text-gray-600">{row.limits.join(' · ')}</p>
            ) : null}
          </td>
        </tr>
      ))}
    </DocTable>
  );
}

/** A field or parameter name, its type below it, and "required"/"optional" when that matters. */
export function NameCell({
  name,
  required,
  children,
}: {
  name: string;
  required?: boolean;
  children: React.ReactNode;
}) {
  return (
    <td className="w-2/5 px-3 py-2 align-top">
      <code className="break-words font-mono text-[13px] font-medium text-gray-900">
        <BreakableName name={name} />
      </code>
      <div className="break-words font-mono text-xs text-gray-600">{children}</div>
      {required !== undefined ? (
        <div className={`text-xs ${required ? 'font-medium text-amber-800' : 'text-gray-600'}`}>
          {required ? 'required' : 'optional'}
        </div>
      ) : null}
    </td>
  );
}

/** Links each object name in a type label ("Payment or null", "array of CheckoutSession") to its section. */
export function TypeLabel({ type, objectNames }: { type: string; objectNames: ReadonlySet<string> }) {
  return (
    <>
      {type.split(/(\b[A-Z][A-Za-z]+\b)/).map((part, index) =>
        objectNames.has(part) ? (
          <a
            key={index}
            href={`#object-${part}`}
            className="text-accent-700 underline decoration-accent-600/40 underline-offset-2 hover:decoration-accent-600"
          >
            {part}
          </a>
        ) : (
          <span key={index}>{part}</span>
        ),
      )}
    </>
  );
}
