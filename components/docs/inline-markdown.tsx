import { Code } from './code-block';

/** The document's descriptions are CommonMark; the only markup they use is `code`, rendered here. */
export function InlineMarkdown({ text }: { text: string }) {
  return (
    <>{text.split(/`([^`]+)`/).map((part, index) => (index % 2 === 1 ? <Code key={index}>{part}</Code> : part))}</>
  );
}
