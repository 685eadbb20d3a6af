import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { Principal, Scope } from '@cds/auth';
import { ApiExtension } from '@nestjs/swagger';
import { ApiKeyed } from '../openapi/api-docs.decorators';

export const SCOPE_KEY = 'cds:scope';
export const PUBLIC_KEY = 'cds:public';

/** The scope a key needs for this route (and, in the API description, the key and the
 * 401/403/429/503 answers the guard gives). */
export const RequireScope = (scope: Scope) => applyDecorators(SetMetadata(SCOPE_KEY, scope), ApiKeyed());
/** Health probes: no key, no rate limit (no security in the API description). */
export const Public = () => applyDecorators(SetMetadata(PUBLIC_KEY, true), ApiExtension('x-public', true));

/** The authenticated caller, set by the AuthGuard. */
export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  return ctx.switchToHttp().getRequest().principal;
});

/** Base URL of the request as the client addressed it (for reproducing commands). */
export const RequestOrigin = createParamDecorator((_: unknown, ctx: ExecutionContext): { host: string; protocol: string } => {
  const req = ctx.switchToHttp().getRequest();
  const host = String(req.headers['x-forwarded-host'] ?? req.headers.host ?? '')
    .split(',')[0]
    .trim();
  const protocol = String(req.headers['x-forwarded-proto'] ?? req.protocol ?? 'http')
    .split(',')[0]
    .trim();
  return { host, protocol };
});
