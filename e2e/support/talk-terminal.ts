import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { CallSummary } from '../../packages/simulator/src/talk/terminal-call';
import type { DetectedTone } from '../../packages/simulator/src/talk/tone';
import type { TalkResult, TalkSummary } from '../../packages/simulator/src/talk/terminal-talk';

/**
 * A simulated terminal (the simulator's ConsoleTerminal) in group talk, driven from a spec: it
 * logs on to the console service with its device credentials, enters its talk group, decodes every
 * burst it hears and measures its tone (talkStats().lastHeard.tone), and talks a tone on request.
 * It runs in a child process under tsx (see talk-terminal-process.ts).
 */
export interface TalkTerminalOptions {
  /** websocket address of the console service */
  url: string;
  /** hostbody */
  logonName: string;
  /** the device secret */
  passwd: string;
  clientid: string;
  /** where its encoded tones are kept */
  cacheDir: string;
}

export type TalkOrder =
  | { id: number; op: 'talk'; tgid: number; seconds: number; tone: number; emergency: boolean }
  | { id: number; op: 'enter'; tgid: number }
  | { id: number; op: 'stats' }
  | { id: number; op: 'calls' }
  | { id: number; op: 'stop' };

/** An order before its id is given (each member of the union without its id). */
type Unsent<T> = T extends unknown ? Omit<T, 'id'> : never;

export interface TalkReply {
  id: number;
  value?: unknown;
  error?: string;
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PROCESS = fileURLToPath(new URL('./talk-terminal-process.ts', import.meta.url));

export class TalkTerminal {
  private serial = 0;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  private constructor(
    private readonly child: ChildProcess,
    readonly uid: number,
  ) {}

  /** Starts the terminal; resolves once it is logged on and in the first of its groups. */
  static start(options: TalkTerminalOptions): Promise<TalkTerminal> {
    const child = fork(PROCESS, [JSON.stringify(options)], { cwd: ROOT, execArgv: ['--import', 'tsx'] });
    return new Promise((resolve, reject) => {
      const early = (code: number | null) => reject(new Error(`the terminal process ended (${code}) before its logon`));
      child.once('exit', early);
      child.once('message', (first: TalkReply) => {
        child.off('exit', early);
        if (first.error !== undefined) {
          child.kill();
          reject(new Error(`terminal logon: ${first.error}`));
          return;
        }
        const terminal = new TalkTerminal(child, Number(first.value));
        child.on('message', (m: TalkReply) => terminal.answered(m));
        child.on('exit', () => terminal.failAll('the terminal process ended'));
        resolve(terminal);
      });
    });
  }

  private answered(m: TalkReply): void {
    const waiter = this.waiting.get(m.id);
    this.waiting.delete(m.id);
    if (m.error !== undefined) waiter?.reject(new Error(m.error));
    else waiter?.resolve(m.value);
  }

  private failAll(reason: string): void {
    for (const waiter of this.waiting.values()) waiter.reject(new Error(reason));
    this.waiting.clear();
  }

  private order<T>(order: Unsent<TalkOrder>): Promise<T> {
    const id = ++this.serial;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.send({ ...order, id });
    });
  }

  /** Enters `tgid` to hear it (at logon it entered its first group, which may be another). */
  async enter(tgid: number): Promise<void> {
    await this.order({ op: 'enter', tgid });
  }

  /** Talks a tone of `tone` Hz for `seconds` in `tgid` (asks for the floor, sends, lets go). */
  talk(tgid: number, request: { seconds: number; tone: number; emergency?: boolean }): Promise<TalkResult> {
    return this.order({ op: 'talk', tgid, emergency: false, ...request });
  }

  /** What it heard and said, and the errors its analysis met. */
  stats(): Promise<TalkSummary & { errors: string[] }> {
    return this.order({ op: 'stats' });
  }

  /** Its voice calls (it answers after about 1 s and says its tone) and the tone of what it heard in the last. */
  calls(): Promise<CallSummary & { heardTone: DetectedTone | null }> {
    return this.order({ op: 'calls' });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    await this.order({ op: 'stop' }).catch(() => undefined);
    await exited;
  }
}
