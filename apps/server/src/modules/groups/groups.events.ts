/**
 * A talk group created, changed (name, unit, members) or deleted (also a temporary group past its
 * life) through the HTTP routes or the sweeper; the console service tells the consoles that see
 * its unit (notice_create_grp, notice_update_grp, notice_delete_grp), so that group lists follow at
 * once.
 */
export type GroupChange =
  | { kind: 'created'; tgid: number; unit_id: number }
  | { kind: 'updated'; tgid: number; unit_id: number; previous_unit_id: number }
  | { kind: 'deleted'; tgid: number; unit_id: number; members: number[] };

declare module '../../bus' {
  interface DomainEvents {
    'group.changed': GroupChange;
  }
}
