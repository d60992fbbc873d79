import { createBrowserRouter } from 'react-router';
import { setNavigator } from '../api/navigation';
import { appRoutes } from './routing/routes';

export function createAppRouter() {
  const router = createBrowserRouter(appRoutes());
  setNavigator((path, options) => void router.navigate(path, options));
  return router;
}
