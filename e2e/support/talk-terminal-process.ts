// A simulated terminal in group talk, run by e2e/support/talk-terminal.ts in a child process: the
// simulator's ConsoleTerminal imports the protocol's index, whose JSON catalogues Playwright's
// loader refuses (tsx here reads them). Orders come as IPC messages, answers go back the same way.
import { ConsoleTerminal } from '../../packages/simulator/src/terminal';
import type { TalkOrder, TalkReply, TalkTerminalOptions } from './talk-terminal';

const options = JSON.parse(process.argv[2]!) as TalkTerminalOptions;
const errors: string[] = [];
const terminal = new ConsoleTerminal({
  url: options.url,
  logonName: options.logonName,
  passwd: options.passwd,
  clientid: options.clientid,
  // no text answers: the spec only talks
  replyRate: 0,
  talk: { analyse: true, cacheDir: options.cacheDir },
  onError: (err) => errors.push(err instanceof Error ? err.message : String(err)),
});

const reply = (message: TalkReply) => process.send!(message);

process.on('message', (order: TalkOrder) => {
  const answer = async (): Promise<unknown> => {
    switch (order.op) {
      case 'enter':
        return terminal.groupTalk.enter(order.tgid);
      case 'talk':
        return terminal.talk(order.tgid, {
          seconds: order.seconds,
          emergency: order.emergency,
          source: { tone: order.tone },
        });
      case 'stats':
        return { ...terminal.talkStats, errors };
      case 'calls':
        return { ...terminal.calls.summary(), heardTone: await terminal.calls.heardTone() };
      case 'stop':
        terminal.stop();
        setImmediate(() => process.exit(0));
        return null;
    }
  };
  answer().then(
    (value) => reply({ id: order.id, value }),
    (err: unknown) => reply({ id: order.id, error: err instanceof Error ? err.message : String(err) }),
  );
});

/** Logged on, and in the group it enters by itself at logon: an `enter` order comes after that one. */
async function ready(): Promise<void> {
  await terminal.whenLoggedOn(60_000);
  const deadline = Date.now() + 60_000;
  while (terminal.talkStats.attached === null) {
    if (Date.now() > deadline) throw new Error('logged on, but in no talk group');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

terminal.start();
ready().then(
  () => reply({ id: 0, value: terminal.uid }),
  (err: unknown) => reply({ id: 0, error: err instanceof Error ? err.message : String(err) }),
);
