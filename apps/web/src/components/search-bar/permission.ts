import type { Action } from '@bwc/protocol';

/** A menu id and the action the current user must hold on it (spec part 1 section 6). */
export interface PermissionRequirement {
  menu: number;
  action: Action;
}

/** Anything a widget may hide: by a permission, by a plain flag, or both (both must allow it). */
export interface Gated {
  permission?: PermissionRequirement;
  visible?: boolean;
}

/**
 * The one place where widgets ask whether a gated element is shown. Returns a checker so that a
 * widget can test any number of elements (columns, buttons, menu entries) with a single hook call.
 */
export function usePermissionCheck(): (gated: Gated) => boolean {
  return (gated) => gated.visible !== false;
}
