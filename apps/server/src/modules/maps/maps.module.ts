import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { BasemapTiles } from './basemap';
import { registerMapRoutes } from './maps.routes';
import { TileStore } from './maps.service';

/**
 * Maps: the offline tile store (reset on close), the built-in basemap's tiles (from a pack, used a
 * little after the server is ready) and the routes: style, tiles, basemap, map file upload,
 * reverse geocoding.
 */
export async function registerMapsModule(app: FastifyInstance): Promise<void> {
  const tiles = new TileStore(app.config.dataDir);
  app.addHook('onClose', async () => tiles.reset());
  // with config.basemapPack (default outside tests) the basemap's tiles come from a pack in
  // DATA_DIR/basemap, built once by a child process soon after the first start; without it they
  // are cut in this process
  const basemap = new BasemapTiles({
    packDir: app.config.basemapPack ? join(app.config.dataDir, 'basemap') : null,
    log: (msg, fields) => app.log.info(fields ?? {}, msg),
  });
  if (app.config.basemapPack)
    app.addHook('onReady', async () => {
      setTimeout(() => void basemap.usePack(), 2_000).unref();
    });

  await registerMapRoutes(app, { tiles, basemap });
}
