import { Fragment } from 'react';

/** A long identifier that may wrap after `_`, `.`, `-` or `/` on a narrow screen, never inside a word. */
export function BreakableName({ name }: { name: string }) {
  return (
    <>
      {name.split(/(?<=[_.\-/])/).map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </>
  );
}
