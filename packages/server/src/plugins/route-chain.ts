import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import type { DevicePermission } from '@tankportal/shared/devices';
import type { Db, Executor, Tx } from '../db/client.ts';
import { requireDevicePermission, type DevicePermissions } from '../policies/device-access.ts';
import type { ChangeAuthor } from '../commands/audit-log.ts';
import { actorOf } from './auth.ts';

/** Where the route finds the id of the device it acts on. */
export interface DeviceGuard {
  /** What the actor must hold on the device: 404 when it may not see it, 403 without this. */
  permission: DevicePermission;
  /** The path parameter (default) or the body field holding the device's id. */
  in?: 'params' | 'body';
  /** Its name; `id` in the path, `deviceId` in a body. */
  field?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    deviceAccess: DevicePermissions | null;
    tx: Tx | null;
  }
  interface FastifyContextConfig {
    /**
     * The device the route acts on and the permission it needs, checked once by the chain after
     * the request is validated and before the handler runs (inside the route's transaction when it
     * has one). The handler reads what the actor holds with `deviceAccessOf(request)`.
     */
    device?: DeviceGuard;
    /**
     * The route writes and its changes belong together: the chain opens one transaction for the
     * device check and the handler (`txOf(request)`), commits it before the answer is written and
     * rolls it back on any error, so a refused or failed request leaves nothing half-written. Only
     * for handlers whose work is all in the database (an SMS, an MQTT message or a queued job must
     * follow a commit, so their commands open their own transaction) and that return their answer
     * instead of sending it (`reply.send` would answer before the commit).
     */
    transaction?: boolean;
  }
}

/** What the actor holds on the device the route declared (`config.device`). */
export function deviceAccessOf(request: FastifyRequest): DevicePermissions {
  if (!request.deviceAccess) throw new Error(`${request.routeOptions.url} declares no device`);
  return request.deviceAccess;
}

/** The transaction the chain opened for the route (`config.transaction`). */
export function txOf(request: FastifyRequest): Tx {
  if (!request.tx) throw new Error(`${request.routeOptions.url} declares no transaction`);
  return request.tx;
}

/** Who makes the request's changes and from where, as the record of changes keeps it. */
export function authorOf(request: FastifyRequest): ChangeAuthor {
  return { actor: actorOf(request), address: request.ip };
}

function deviceIdOf(request: FastifyRequest, guard: DeviceGuard): number {
  const source = (guard.in === 'body' ? request.body : request.params) as Record<string, unknown>;
  const id = source[guard.field ?? (guard.in === 'body' ? 'deviceId' : 'id')];
  // The route's schema made it a positive integer; anything else is a wrong declaration.
  if (typeof id !== 'number') throw new Error(`${request.routeOptions.url}: no device id to check`);
  return id;
}

async function checkDevice(executor: Executor, request: FastifyRequest, guard: DeviceGuard) {
  const actor = actorOf(request).user;
  request.deviceAccess = await requireDevicePermission(
    executor,
    actor,
    deviceIdOf(request, guard),
    guard.permission,
  );
}

/**
 * The part of the request chain after validation: the device check and the transaction the route
 * declared, wrapped around its handler when the app is built (the role was checked before the body
 * was read, in auth.ts).
 */
export function registerRouteChain(app: FastifyInstance, { db }: { db: Db }) {
  app.decorateRequest('deviceAccess', null);
  app.decorateRequest('tx', null);

  app.addHook('onRoute', (route: RouteOptions) => {
    const { device, transaction } = route.config ?? {};
    if (!device && !transaction) return;
    // A guard that names a path parameter the route lacks would check nothing: refused at build.
    if (device && device.in !== 'body' && !route.url.includes(`:${device.field ?? 'id'}`))
      throw new Error(`${route.url} guards a device by :${device.field ?? 'id'}, which it lacks`);
    const handler = route.handler;
    route.handler = async function chained(request, reply) {
      if (!transaction) {
        await checkDevice(db, request, device!);
        return handler.call(this, request, reply);
      }
      const answer = await db.transaction(async (tx) => {
        request.tx = tx;
        try {
          if (device) await checkDevice(tx, request, device);
          const result = await handler.call(this, request, reply);
          if (reply.sent) throw new Error(`${route.url} answered before its transaction committed`);
          return result;
        } finally {
          request.tx = null;
        }
      });
      return answer;
    };
  });
}
