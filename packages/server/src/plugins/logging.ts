import type { FastifyRequest, FastifyServerOptions } from 'fastify';

/** Where log lines go: standard output, or a stream a test reads. */
export interface LogStream {
  write(line: string): void;
}
type LoggerOptions = Exclude<FastifyServerOptions['logger'], boolean | undefined>;

/** Query parameters whose values are secrets wherever they appear. */
const SECRET_PARAMETER = /token|secret|passw|signature|api[-_]?key|auth/i;
const REDACTED = '[redacted]';

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment).toLowerCase();
  } catch {
    return segment.toLowerCase();
  }
}

/**
 * The URL as logged, without the secrets it can carry: the token of a public status page
 * (`/api/v2/public/devices/{token}` in the API, `/public/{token}` in the web app) and the values of
 * query parameters named like secrets. Segments are compared decoded (`/%70ublic/…` reaches the
 * same route as `/public/…`), each on its own (`%2F` inside a token does not split it).
 */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  const segments = (queryStart === -1 ? url : url.slice(0, queryStart)).split('/');
  for (let index = 0; index < segments.length - 1; index++) {
    if (decoded(segments[index]) !== 'public') continue;
    const token = decoded(segments[index + 1]) === 'devices' ? index + 2 : index + 1;
    if (token < segments.length) segments[token] = REDACTED;
  }
  const path = segments.join('/');
  if (queryStart === -1) return path;
  const parameters = new URLSearchParams(url.slice(queryStart + 1));
  for (const name of new Set(parameters.keys()))
    if (SECRET_PARAMETER.test(name)) parameters.set(name, REDACTED);
  return `${path}?${parameters.toString().replaceAll(encodeURIComponent(REDACTED), REDACTED)}`;
}

/** Fastify's request serializer, with the URL redacted; headers and bodies are not logged at all. */
function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * Options of the server's logger (pino). Failed queries reach it without their parameters
 * (db/query-errors.ts). Headers that carry credentials are redacted should anything log them.
 */
export function loggerOptions(level: string, stream?: LogStream): LoggerOptions {
  return {
    level,
    stream,
    serializers: { req: serializeRequest },
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'req.headers["x-csrf-token"]',
        'req.headers["x-webhook-token"]',
        'res.headers["set-cookie"]',
      ],
      censor: REDACTED,
    },
  };
}
