import { Alert } from 'antd';
import type { TalkLack } from './audio/support';

interface Props {
  /** what the browser lacks for the panel's audio (no secure address, no encoder or decoder) */
  lacks: readonly TalkLack[];
  /** each lack in the panel's own words */
  lackText: (lack: TalkLack) => string;
  /** not logged on to the console service: this says so */
  offline: string | null;
  /** what went wrong last, until closed */
  problem: string | null;
  onCloseProblem: () => void;
  /** test ids: `<prefix>-unsupported`, `-offline`, `-error` */
  prefix: string;
}

/** The warnings of an audio panel (talk, call): unsupported browser, no service, the last failure. */
export function AudioAlerts({ lacks, lackText, offline, problem, onCloseProblem, prefix }: Props) {
  return (
    <>
      {lacks.map((lack) => (
        <Alert
          key={lack}
          type="warning"
          showIcon
          message={lackText(lack)}
          data-testid={`${prefix}-unsupported`}
          data-lack={lack}
        />
      ))}
      {offline !== null && <Alert type="warning" showIcon message={offline} data-testid={`${prefix}-offline`} />}
      {problem !== null && (
        <Alert
          type="error"
          showIcon
          closable
          message={problem}
          onClose={onCloseProblem}
          data-testid={`${prefix}-error`}
        />
      )}
    </>
  );
}
