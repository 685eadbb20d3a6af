import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { Principal, Scope } from '@cds/auth';

export const SCOPE_KEY = 'cds:scope';
export const PUBLIC_KEY = 'cds:public';

/** The scope a key needs for this route. */
export const RequireScope = (scope: Scope) => SetMetadata(SCOPE_KEY, scope);
/** Health probes: no key, no rate limit. */
export const Public = () => SetMetadata(PUBLIC_KEY, true);

/** The authenticated caller, set by the AuthGuard. */
export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  return ctx.switchToHttp().getRequest().principal;
});

/** Base URL of the request as the client addressed it (for reproducing commands). */
export const RequestOrigin = createParamDecorator((_: unknown, ctx: ExecutionContext): { host: string; protocol: string } => {
  const req = ctx.switchToHttp().getRequest();
  const host = String(req.headers['x-forwarded-host'] ?? req.headers.host ?? '').split(',')[0].trim();
  const protocol = String(req.headers['x-forwarded-proto'] ?? req.protocol ?? 'http').split(',')[0].trim();
  return { host, protocol };
});
