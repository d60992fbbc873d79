import { create } from 'zustand';

/** Client-side session state that is not server data (server data lives in TanStack Query). */
interface SessionState {
  /** true on heartbeat success, false once forced offline (spec part 1 section 4) */
  alive: boolean;
  setAlive: (alive: boolean) => void;
}

export const useSessionStore = create<SessionState>((set) => ({
  alive: false,
  setAlive: (alive) => set({ alive }),
}));
