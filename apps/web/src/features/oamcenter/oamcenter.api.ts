/** Query keys of the operations centre screens. */
export const oamKeys = {
  all: ['oamcenter'] as const,
  devices: ['oamcenter', 'devices'] as const,
  models: ['oamcenter', 'models'] as const,
};
