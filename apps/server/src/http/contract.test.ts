import { Api, type ApiName, type EndpointDef } from '@bwc/protocol';
import type * as FastifyModule from 'fastify';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers';

// Every route the app declares, as Fastify received it: the factory is wrapped so that an onRoute
// hook sees the routes of every module (hooks must exist before the first route).
const declared = vi.hoisted(() => [] as RouteOptions[]);
vi.mock('fastify', async (importOriginal) => {
  const real = await importOriginal<typeof FastifyModule>();
  const factory = ((options?: Parameters<typeof real.default>[0]) => {
    const app = real.default(options);
    app.addHook('onRoute', (route) => {
      declared.push(route);
    });
    return app;
  }) as typeof real.default;
  return { ...real, default: factory };
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

/** The envelope's `data` schema of a route's 200 answer (route.ts wraps the registry's schema). */
function answerData(route: RouteOptions): unknown {
  const response = route.schema?.response as Record<number, { shape?: { data?: unknown } }> | undefined;
  return response?.[200]?.shape?.data;
}

describe('the Api registry is the contract of every REST route', () => {
  const restRoutes = () =>
    declared.filter((r) => String(r.url).startsWith('/rest/') && (r.method === 'GET' || r.method === 'POST'));

  it('every registry entry has exactly one route, and no /rest route is outside the registry', () => {
    const key = (method: unknown, path: string) => `${String(method)} ${path}`;
    const registry = new Map(
      (Object.keys(Api) as ApiName[]).map((name) => [key(Api[name].method, Api[name].path), name] as const),
    );
    const routed = restRoutes().map((r) => key(r.method, r.url));
    expect(routed.filter((k) => !registry.has(k))).toEqual([]);
    const missing = [...registry].filter(([k]) => !routed.includes(k)).map(([, name]) => name);
    expect(missing).toEqual([]);
    expect(routed.length).toBe(registry.size);
  });

  it("every route validates with the registry's body and query schemas and serialises with its answer schema", () => {
    const wrong: string[] = [];
    for (const route of restRoutes()) {
      const name = (Object.keys(Api) as ApiName[]).find((n) => Api[n].path === route.url && Api[n].method === route.method);
      if (!name) continue; // reported by the test above
      const def: EndpointDef = Api[name];
      if (route.schema?.body !== def.body) wrong.push(`${name}: body`);
      if (route.schema?.querystring !== def.query) wrong.push(`${name}: query`);
      if (answerData(route) !== def.data) wrong.push(`${name}: data`);
    }
    expect(wrong).toEqual([]);
  });

  it('every endpoint answers either an envelope with a data schema or a file', () => {
    const neither = (Object.keys(Api) as ApiName[]).filter((name) => {
      const def: EndpointDef = Api[name];
      return (def.data === undefined) === (def.file !== true);
    });
    expect(neither).toEqual([]);
  });
});
