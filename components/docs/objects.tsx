import type { OpenApiDocument } from '@/lib/openapi/document';
import { DocSection } from './doc-section';
import { FieldTable } from './field-table';
import { objectRows } from './schema-fields';

export function Objects({ document, objectNames }: { document: OpenApiDocument; objectNames: readonly string[] }) {
  const names = new Set(objectNames);
  return (
    <DocSection
      id="objects"
      title="Objects"
      lead="What the endpoints answer with. New fields may be added; your code should ignore the ones it does not know."
    >
      {objectNames.map((name) => {
        const schema = document.components.schemas[name];
        return (
          <div key={name} id={`object-${name}`} className="scroll-mt-6 pt-4">
            <h3 className="font-mono text-base font-semibold text-gray-900">{name}</h3>
            {typeof schema.description === 'string' ? (
              <p className="mt-1 mb-3 text-gray-600">{schema.description}</p>
            ) : null}
            <FieldTable
              label={`Fields of ${name}`}
              rows={objectRows(schema)}
              objectNames={names}
              showRequired={false}
            />
          </div>
        );
      })}
    </DocSection>
  );
}
