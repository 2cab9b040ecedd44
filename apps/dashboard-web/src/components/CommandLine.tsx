import { CopyButton } from './CopyButton';

/** A shell command to paste, with its own Copy button. */
export function CommandLine({ command, testId }: { command: string; testId?: string }) {
  return (
    <div className="command-line">
      <code data-testid={testId}>{command}</code>
      <CopyButton text={command} label="Copy command" />
    </div>
  );
}
