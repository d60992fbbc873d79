/** TanStack Query keys of the configuration centre; invalidate a prefix to reload its screens. */
export const configKeys = {
  all: ['configcenter'] as const,
  units: ['configcenter', 'units'] as const,
  accounts: ['configcenter', 'accounts'] as const,
  online: ['configcenter', 'online'] as const,
  roles: ['configcenter', 'roles'] as const,
  roleOptions: ['configcenter', 'roleOptions'] as const,
  roleAuth: ['configcenter', 'roleAuth'] as const,
  oplog: ['configcenter', 'oplog'] as const,
  dictTypes: ['configcenter', 'dictTypes'] as const,
  dict: ['configcenter', 'dict'] as const,
};
