import type { FieldRow } from './schema-fields';
import { DocTable } from './doc-section';

/** The fields of a schema: name, type (object names link to their description), whether required, and limits. */
export function FieldTable({ label, rows, objectNames, showRequired }: { label: string; rows: FieldRow[]; objectNames: ReadonlySet<string>; showRequired: boolean }) {
  return (
    <DocTable label={label} head={['Field', 'Type', 'Description']}>
      {rows.map((row) => (
        <tr key={row.name}>
          <td className="whitespace-nowrap px-3 py-2 align-top">
            <code className="font-mono text-[13px] font-medium text-gray-900">{row.name}</code>
            {showRequired ? <div className={`text-xs ${row.required ? 'font-medium text-amber-800' : 'text-gray-600'}`}>{row.required ? 'required' : 'optional'}</div> : null}
          </td>
          <td className="min-w-40 px-3 py-2 align-top font-mono text-xs text-gray-800">
            <TypeLabel type={row.type} objectNames={objectNames} />
          </td>
          <td className="min-w-56 px-3 py-2 align-top text-gray-700">
            {row.description ? <p>{row.description}</p> : null}
            {row.limits.length > 0 ? <p className="text-xs text-gray-600">{row.limits.join(' · ')}</p> : null}
          </td>
        </tr>
      ))}
    </DocTable>
  );
}

/** Links each object name in a type label ("Payment or null", "array of CheckoutSession") to its section. */
export function TypeLabel({ type, objectNames }: { type: string; objectNames: ReadonlySet<string> }) {
  return (
    <>
      {type.split(/(\b[A-Z][A-Za-z]+\b)/).map((part, index) =>
        objectNames.has(part) ? (
          <a key={index} href={`#object-${part}`} className="text-accent-700 underline decoration-accent-600/40 underline-offset-2 hover:decoration-accent-600">
            {part}
          </a>
        ) : (
          <span key={index}>{part}</span>
        ),
      )}
    </>
  );
}
