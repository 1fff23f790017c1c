import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import type { FastifyReply, FastifyServerOptions } from 'fastify';
import { errorBody } from '../http-error.ts';

/** What Node's HTTP parser refuses before Fastify sees a request, by the error's code. */
const CLIENT_ERRORS: Record<string, { status: number; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: 'The request line and headers exceed 16 KB' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'The request took too long to arrive' },
};
const MALFORMED = { status: 400, message: 'Malformed HTTP request' };

/**
 * The answers given before any route or hook runs, in the one error shape and with the security
 * headers like every other answer: from Fastify's router a URL that does not decode (400) and a
 * path parameter longer than maxParamLength (414); on the raw socket what Node's HTTP parser
 * refuses (431 for a request line or headers over its 16 KB, 408, 400 for the rest).
 */
export function frameworkErrorOptions(
  headers: Record<string, string>,
): Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'> {
  return {
    frameworkErrors(error, _request, routerReply) {
      const status = error.statusCode ?? 400;
      const reply = routerReply as unknown as FastifyReply;
      void reply.code(status).headers(headers).send(errorBody(status, error.message));
    },
    clientErrorHandler(error: Error & { code?: string }, socket: Socket) {
      if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
      const { status, message } = CLIENT_ERRORS[error.code ?? ''] ?? MALFORMED;
      const body = JSON.stringify(errorBody(status, message));
      const head = [
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
        'content-type: application/json; charset=utf-8',
        `content-length: ${Buffer.byteLength(body)}`,
        'connection: close',
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      ];
      socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
    },
  };
}
