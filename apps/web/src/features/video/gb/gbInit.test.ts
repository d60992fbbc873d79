import { describe, expect, it } from 'vitest';
import { GbInit, GbInitError, type GbInitStep, type GbInitSteps } from './gbInit';

/** Steps that record their calls and fail while `fail` names them. */
function steps(fail: Partial<Record<GbInitStep, Error>>) {
  const calls: GbInitStep[] = [];
  const make = (step: GbInitStep) => async (): Promise<void> => {
    calls.push(step);
    const error = fail[step];
    if (error) throw error;
  };
  const all: GbInitSteps = { init: make('init'), register: make('register'), catalog: make('catalog') };
  return { calls, all };
}

describe('GB player init states', () => {
  it('runs init, register and catalog in order and is ready', async () => {
    const { calls, all } = steps({});
    const machine = new GbInit(all);
    const seen: string[] = [];
    machine.subscribe(() => {
      const { phases } = machine.getSnapshot();
      seen.push(`${phases.init}/${phases.register}/${phases.catalog}`);
    });
    expect(await machine.start()).toBe(true);
    expect(calls).toEqual(['init', 'register', 'catalog']);
    expect(machine.getSnapshot()).toMatchObject({ ready: true, failure: null });
    expect(seen).toContain('ongoing/idle/idle');
    expect(seen).toContain('done/ongoing/idle');
    expect(seen).toContain('done/done/ongoing');
    // ready: a further start asks nothing again
    expect(await machine.start()).toBe(true);
    expect(calls).toHaveLength(3);
  });

  it('a failed step is reset and the next attempt restarts from it, keeping the steps done', async () => {
    const fail: Partial<Record<GbInitStep, Error>> = { register: new Error('down') };
    const { calls, all } = steps(fail);
    const machine = new GbInit(all);
    expect(await machine.start()).toBe(false);
    expect(machine.getSnapshot()).toEqual({
      phases: { init: 'done', register: 'idle', catalog: 'idle' },
      failure: { step: 'register', reason: 'register', detail: 'down' },
      ready: false,
    });
    delete fail.register;
    fail.catalog = new GbInitError('catalogTimeout');
    expect(await machine.start()).toBe(false);
    expect(calls).toEqual(['init', 'register', 'register', 'catalog']);
    expect(machine.getSnapshot().failure).toEqual({ step: 'catalog', reason: 'catalogTimeout' });
    expect(machine.getSnapshot().phases).toEqual({ init: 'done', register: 'done', catalog: 'idle' });
    delete fail.catalog;
    expect(await machine.start()).toBe(true);
    expect(calls).toEqual(['init', 'register', 'register', 'catalog', 'catalog']);
  });

  it('keeps the reason a step gives (no username: synchronise users first)', async () => {
    const { all } = steps({ init: new GbInitError('noUser') });
    const machine = new GbInit(all);
    expect(await machine.start()).toBe(false);
    expect(machine.getSnapshot().failure).toEqual({ step: 'init', reason: 'noUser' });
    expect(machine.getSnapshot().phases.init).toBe('idle');
  });

  it('concurrent starts share one run; reset makes a step and the later ones run again', async () => {
    const { calls, all } = steps({});
    const machine = new GbInit(all);
    const [a, b] = await Promise.all([machine.start(), machine.start()]);
    expect([a, b]).toEqual([true, true]);
    expect(calls).toEqual(['init', 'register', 'catalog']);
    machine.reset('register');
    expect(machine.getSnapshot().phases).toEqual({ init: 'done', register: 'idle', catalog: 'idle' });
    expect(await machine.start()).toBe(true);
    expect(calls).toEqual(['init', 'register', 'catalog', 'register', 'catalog']);
  });

  it('disposed while a step runs: no failure is reported', async () => {
    let release: () => void = () => undefined;
    const machine = new GbInit({
      init: (signal) =>
        new Promise((_resolve, reject) => {
          release = () => reject(new Error('aborted'));
          signal.addEventListener('abort', () => release());
        }),
      register: async () => undefined,
      catalog: async () => undefined,
    });
    const started = machine.start();
    machine.dispose();
    expect(await started).toBe(false);
    expect(machine.getSnapshot().failure).toBeNull();
  });

  it('starts afresh after dispose, as a component mounted twice (StrictMode) does', async () => {
    let calls = 0;
    const machine = new GbInit({
      // the first call waits until aborted; the second one answers
      init: (signal) =>
        ++calls === 1
          ? new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))))
          : Promise.resolve(),
      register: async () => undefined,
      catalog: async () => undefined,
    });
    const first = machine.start();
    expect(machine.getSnapshot().phases.init).toBe('ongoing');
    machine.dispose();
    expect(machine.getSnapshot().phases.init).toBe('idle');
    const second = machine.start();
    expect(await first).toBe(false);
    expect(await second).toBe(true);
    expect(calls).toBe(2);
    expect(machine.getSnapshot()).toMatchObject({ ready: true, failure: null });
  });
});
