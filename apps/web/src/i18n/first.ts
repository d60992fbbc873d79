/**
 * Area namespaces loaded before the first render: what the login page, the shell (navigation bar,
 * bell) and the home page use. The other areas' catalogues (the admin screens, dispatch, maps,
 * video, ...) load with their pages (the namespaces a route names in `lazyPage`), so that they do
 * not count against the first-load budget (apps/web/bundle-budget.ts). The shell may use only
 * these (app/routing/pageNamespaces.test.ts). No imports: the budget reads it from Node.
 */
export const FIRST_NAMESPACES = [
  'common',
  'login',
  'shell',
  'menu',
  'components',
  'bell',
  'alarm',
  'realtime',
  'pages',
  'home',
] as const;
