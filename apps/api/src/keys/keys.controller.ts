import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { Principal } from '@cds/auth';
import { CurrentPrincipal, RequireScope } from '../http/auth.decorators';
import { CreateKeyDto } from './keys.dto';
import { KeysService } from './keys.service';

@Controller('v1/keys')
@RequireScope('keys')
export class KeysController {
  constructor(private readonly keys: KeysService) {}

  @Post()
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateKeyDto) {
    return this.keys.create(p, body);
  }

  @Get()
  async list(@CurrentPrincipal() p: Principal) {
    return { keys: await this.keys.list(p) };
  }

  @Delete(':keyId')
  @HttpCode(200)
  revoke(@CurrentPrincipal() p: Principal, @Param('keyId') keyId: string) {
    return this.keys.revoke(p, keyId);
  }
}
