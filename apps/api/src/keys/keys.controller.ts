import { Body, Controller, Delete, Get, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Principal } from '@cds/auth';
import { Endpoint } from '../openapi/api-docs.decorators';
import { CurrentPrincipal, RequireScope } from '../http/auth.decorators';
import { CreateKeyDto } from './keys.dto';
import { KeysService } from './keys.service';
import { ApiKey, ApiKeyCreated, ApiKeyList } from './keys.answers';

@ApiTags('keys')
@Controller('v1/keys')
@RequireScope('keys')
export class KeysController {
  constructor(private readonly keys: KeysService) {}

  @Post()
  @Endpoint('Create an API key with scopes (the key is shown once)', ApiKeyCreated, { status: 201, body: true })
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateKeyDto): Promise<ApiKeyCreated> {
    return this.keys.create(p, body);
  }

  @Get()
  @Endpoint('The API keys of this tenant (without the keys themselves)', ApiKeyList)
  async list(@CurrentPrincipal() p: Principal): Promise<ApiKeyList> {
    return { keys: await this.keys.list(p) };
  }

  @Delete(':keyId')
  @Endpoint('Revoke a key: refused at once on every replica', ApiKey, { errors: [404] })
  revoke(@CurrentPrincipal() p: Principal, @Param('keyId') keyId: string): Promise<ApiKey> {
    return this.keys.revoke(p, keyId);
  }
}
