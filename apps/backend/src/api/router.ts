import type { IncomingMessage } from 'node:http';
import type { Reply } from './http.js';

export interface RouteContext {
  req: IncomingMessage;
  url: URL;
  params: Record<string, string>;
}

export type Handler = (ctx: RouteContext) => Reply | Promise<Reply>;

/** What a route's body may be: JSON (every write route), or a file's raw bytes too (a save). */
export interface RouteOptions {
  acceptsBytes?: boolean;
}

interface Route {
  method: string;
  segments: string[];
  handler: Handler;
  acceptsBytes: boolean;
}

export type RouteMatch =
  | { kind: 'found'; handler: Handler; params: Record<string, string>; acceptsBytes: boolean }
  | { kind: 'method_not_allowed'; allow: string[] }
  | { kind: 'not_found' };

/**
 * Method + path patterns with `:name` segments; nothing else. A path that exists under another
 * method is told so (405 with Allow), so a client bug is not mistaken for a missing resource.
 */
export class Router {
  private readonly routes: Route[] = [];

  add(method: string, pattern: string, handler: Handler, options: RouteOptions = {}): this {
    this.routes.push({ method: method.toUpperCase(), segments: split(pattern), handler, acceptsBytes: options.acceptsBytes === true });
    return this;
  }

  get(pattern: string, handler: Handler): this {
    return this.add('GET', pattern, handler);
  }

  post(pattern: string, handler: Handler): this {
    return this.add('POST', pattern, handler);
  }

  put(pattern: string, handler: Handler, options?: RouteOptions): this {
    return this.add('PUT', pattern, handler, options);
  }

  /** Every registered route as `METHOD /pattern` pairs (the access tests enumerate them). */
  list(): Array<{ method: string; pattern: string }> {
    return this.routes.map((r) => ({ method: r.method, pattern: `/${r.segments.join('/')}` }));
  }

  patch(pattern: string, handler: Handler): this {
    return this.add('PATCH', pattern, handler);
  }

  delete(pattern: string, handler: Handler): this {
    return this.add('DELETE', pattern, handler);
  }

  match(method: string, pathname: string): RouteMatch {
    const segments = split(pathname);
    const allow: string[] = [];
    const wanted = method === 'HEAD' ? 'GET' : method.toUpperCase();
    for (const route of this.routes) {
      const params = matchSegments(route.segments, segments);
      if (!params) continue;
      if (route.method === wanted) return { kind: 'found', handler: route.handler, params, acceptsBytes: route.acceptsBytes };
      allow.push(route.method);
    }
    return allow.length > 0 ? { kind: 'method_not_allowed', allow } : { kind: 'not_found' };
  }
}

function split(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

function matchSegments(pattern: string[], actual: string[]): Record<string, string> | undefined {
  if (pattern.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i] as string;
    const a = actual[i] as string;
    if (p.startsWith(':')) {
      let value: string;
      try {
        value = decodeURIComponent(a);
      } catch {
        return undefined;
      }
      params[p.slice(1)] = value;
    } else if (p !== a) {
      return undefined;
    }
  }
  return params;
}
