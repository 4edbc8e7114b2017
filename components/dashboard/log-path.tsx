import { Fragment } from 'react';

/**
 * A request path that wraps only after a slash, so a narrow screen shows /v1/refund-requests/ and then
 * the id, never half a word on each line. A segment wider than the line still breaks, as a last resort.
 */
export function LogPath({ path }: { path: string }) {
  const segments = path.split('/');
  return (
    <span className="break-words text-gray-900">
      {segments.map((segment, index) => (
        <Fragment key={index}>
          {segment}
          {index < segments.length - 1 && (
            <>
              /<wbr />
            </>
          )}
        </Fragment>
      ))}
    </span>
  );
}
