/**
 * The GB player's initialisation (spec part 2 section 4): three steps, init, register with the
 * server, catalog fetch, each not initialised, ongoing or done. A failure resets that step; the
 * next attempt (a retry or a play) restarts from it, keeping the steps already done.
 */

export const GB_INIT_STEPS = ['init', 'register', 'catalog'] as const;
export type GbInitStep = (typeof GB_INIT_STEPS)[number];
export type GbStepPhase = 'idle' | 'ongoing' | 'done';

/**
 * Why a step failed (the player messages of spec part 2 section 8):
 * - `noUser`: init, the user cannot be used for GB (checkgbuser usable 0): synchronise users first;
 * - `init`: init, the configuration could not be read;
 * - `register`: the server does not serve GB devices (gbconfig running 0) or could not be asked;
 * - `catalogTimeout`: the device catalog did not answer in time;
 * - `catalog`: the device catalog answered with an error.
 */
export type GbInitFailure = 'noUser' | 'init' | 'register' | 'catalogTimeout' | 'catalog';

export interface GbInitState {
  phases: Readonly<Record<GbInitStep, GbStepPhase>>;
  /** the last failure and its step, until the next attempt */
  failure: { step: GbInitStep; reason: GbInitFailure; detail?: string } | null;
  ready: boolean;
}

/** A step's refusal: the reason to show (any other error is the step's default reason). */
export class GbInitError extends Error {
  constructor(
    readonly reason: GbInitFailure,
    detail = '',
  ) {
    super(detail);
    this.name = 'GbInitError';
  }
}

/** What each step does; it resolves when done and rejects (a GbInitError or any error) when not. */
export type GbInitSteps = Record<GbInitStep, (signal: AbortSignal) => Promise<void>>;

const DEFAULT_REASON: Record<GbInitStep, GbInitFailure> = {
  init: 'init',
  register: 'register',
  catalog: 'catalog',
};

const IDLE: GbInitState = {
  phases: { init: 'idle', register: 'idle', catalog: 'idle' },
  failure: null,
  ready: false,
};

export class GbInit {
  private state: GbInitState = IDLE;
  private readonly listeners = new Set<() => void>();
  private running: Promise<boolean> | null = null;
  private abort = new AbortController();

  constructor(private readonly steps: GbInitSteps) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  getSnapshot = (): GbInitState => this.state;

  /**
   * Runs the steps not done yet, from the first of them; true when all are done. After `dispose`
   * it starts afresh (React's StrictMode mounts, unmounts and mounts a component again).
   */
  start(): Promise<boolean> {
    if (this.state.ready) return Promise.resolve(true);
    if (!this.running) {
      const run: Promise<boolean> = this.run(this.abort.signal).finally(() => {
        if (this.running === run) this.running = null;
      });
      this.running = run;
    }
    return this.running;
  }

  /** Steps from `step` on are to be done again (e.g. the catalog after a device change). */
  reset(step: GbInitStep): void {
    const from = GB_INIT_STEPS.indexOf(step);
    const phases = { ...this.state.phases };
    for (const later of GB_INIT_STEPS.slice(from)) phases[later] = 'idle';
    this.set({ phases, failure: null, ready: false });
  }

  /** Stops the run (its step is left to be done again) and forgets the listeners. */
  dispose(): void {
    this.abort.abort();
    this.abort = new AbortController();
    this.running = null;
    this.listeners.clear();
    const phases = { ...this.state.phases };
    for (const step of GB_INIT_STEPS) if (phases[step] === 'ongoing') phases[step] = 'idle';
    this.state = { ...this.state, phases };
  }

  private async run(signal: AbortSignal): Promise<boolean> {
    this.set({ ...this.state, failure: null });
    for (const step of GB_INIT_STEPS) {
      if (this.state.phases[step] === 'done') continue;
      this.setPhase(step, 'ongoing');
      try {
        await this.steps[step](signal);
      } catch (err) {
        if (signal.aborted) return false;
        const reason = err instanceof GbInitError ? err.reason : DEFAULT_REASON[step];
        const detail = err instanceof Error && err.message ? err.message : undefined;
        this.set({
          phases: { ...this.state.phases, [step]: 'idle' },
          failure: { step, reason, ...(detail ? { detail } : {}) },
          ready: false,
        });
        return false;
      }
      if (signal.aborted) return false;
      this.setPhase(step, 'done');
    }
    this.set({ ...this.state, ready: true });
    return true;
  }

  private setPhase(step: GbInitStep, phase: GbStepPhase): void {
    this.set({ ...this.state, phases: { ...this.state.phases, [step]: phase } });
  }

  private set(state: GbInitState): void {
    this.state = state;
    for (const listener of [...this.listeners]) listener();
  }
}
