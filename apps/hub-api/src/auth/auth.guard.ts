import { type CanActivate, type ExecutionContext, Injectable, SetMetadata, createParamDecorator } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import type { TokenScope } from '@skillhub/database';
import { AuthService } from './auth.service';
import type { Principal } from './principal';
import { ForbiddenError } from './auth.errors';

const SCOPE_KEY = 'skillhub:scope';
const ADMIN_KEY = 'skillhub:admin';

/** Marks a route as needing a token with this scope (the admin token has every scope). */
export const RequireScope = (scope: TokenScope) => SetMetadata(SCOPE_KEY, scope);
/** Marks a route as operator-only. */
export const RequireAdmin = () => SetMetadata(ADMIN_KEY, true);

type AuthedRequest = Request & { principal?: Principal };

/** Applied to routes that need a caller; puts the principal on the request for `@CurrentPrincipal()`. */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly auth: AuthService,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthedRequest>();
    const targets = [context.getHandler(), context.getClass()];
    const scope = this.reflector.getAllAndOverride<TokenScope | undefined>(SCOPE_KEY, targets);
    const principal = await this.auth.require(req.headers.authorization, scope);
    if (this.reflector.getAllAndOverride<boolean>(ADMIN_KEY, targets) && principal.kind !== 'admin') {
      throw new ForbiddenError('This route is for the hub operator (HUB_ADMIN_TOKEN).');
    }
    req.principal = principal;
    return true;
  }
}

export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  const principal = ctx.switchToHttp().getRequest<AuthedRequest>().principal;
  if (!principal) throw new Error('CurrentPrincipal used on a route without AuthGuard');
  return principal;
});
