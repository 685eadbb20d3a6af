import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError } from '@cds/errors';
import { bearerToken, Principal, Scope } from '@cds/auth';
import { AppConfig } from '@cds/config';
import { KeyResolver } from '../keys/key-resolver.service';
import { PUBLIC_KEY, SCOPE_KEY } from './auth.decorators';
import { RateLimiter } from './rate-limiter';
import { RateLimitedError } from './rate-limited.error';
import { setHeader } from './reply';
import { requestIdOf } from './request-id';

/**
 * Every /v1 route: resolve the key, count it against its rate limit (the headers go on
 * every answer, errors included), then check the route's scope.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  private readonly limiter: RateLimiter;

  constructor(
    private readonly reflector: Reflector,
    private readonly keys: KeyResolver,
    config: AppConfig,
  ) {
    this.limiter = new RateLimiter(config.RATE_LIMIT_PER_MINUTE);
  }

  /** A route's decorators, read once per controller and handler: they do not change at run time. */
  private readonly routes = new WeakMap<Function, WeakMap<Function, { public: boolean; scope: Scope | undefined }>>();

  private route(ctx: ExecutionContext): { public: boolean; scope: Scope | undefined } {
    const handler = ctx.getHandler();
    const cls = ctx.getClass();
    let ofClass = this.routes.get(cls);
    if (!ofClass) this.routes.set(cls, (ofClass = new WeakMap()));
    let route = ofClass.get(handler);
    if (!route) {
      const targets = [handler, cls];
      route = {
        public: this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets) === true,
        scope: this.reflector.getAllAndOverride<Scope | undefined>(SCOPE_KEY, targets),
      };
      ofClass.set(handler, route);
    }
    return route;
  }

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const route = this.route(ctx);
    if (route.public) return true;
    const req = ctx.switchToHttp().getRequest();
    const reply = ctx.switchToHttp().getResponse();

    const token = bearerToken(req.headers.authorization);
    let principal: Principal | null = null;
    let refused: DomainError | null = null;
    if (token) {
      try {
        principal = await this.keys.resolve(token);
      } catch (err) {
        if (!(err instanceof DomainError) || err.kind !== 'unauthorized') throw err;
        refused = err; // an expired or forged session token: answered after the rate-limit headers
      }
    }

    const verdict = this.limiter.hit(principal ? `key:${principal.keyId}` : `ip:${req.ip ?? ''}`);
    setHeader(reply, 'X-RateLimit-Limit', verdict.limit);
    setHeader(reply, 'X-RateLimit-Remaining', verdict.remaining);
    setHeader(reply, 'X-RateLimit-Reset', verdict.reset);
    if (!verdict.allowed) {
      setHeader(reply, 'Retry-After', verdict.retryAfter);
      throw new RateLimitedError(verdict.retryAfter);
    }

    if (!principal) {
      throw (
        refused ??
        new DomainError(
          'unauthorized',
          'INVALID_API_KEY',
          'Invalid or missing API key',
          token ? 'the API key is unknown or revoked' : 'send the header Authorization: Bearer <API_KEY>',
        )
      );
    }
    req.principal = { ...principal, requestId: requestIdOf(req) } satisfies Principal;

    const scope = route.scope;
    if (scope && !principal.scopes.includes(scope)) {
      const details = principal.session ? 'session tokens are accepted by the guardrail endpoints only' : `this operation needs the scope "${scope}"`;
      throw new DomainError('forbidden', 'INSUFFICIENT_SCOPE', 'API key lacks permission for this operation', details);
    }
    return true;
  }
}
