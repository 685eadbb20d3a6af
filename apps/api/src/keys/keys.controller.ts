import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Principal } from '@cds/auth';
import { ApiAnswer, ApiBodyErrors, ApiErrors } from '../openapi/api-docs.decorators';
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
  @ApiOperation({ summary: 'Create an API key with scopes (the key is shown once)' })
  @ApiAnswer(201, ApiKeyCreated, 'Created')
  @ApiBodyErrors()
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateKeyDto): Promise<ApiKeyCreated> {
    return this.keys.create(p, body);
  }

  @Get()
  @ApiOperation({ summary: 'The API keys of this tenant (without the keys themselves)' })
  @ApiAnswer(200, ApiKeyList)
  async list(@CurrentPrincipal() p: Principal): Promise<ApiKeyList> {
    return { keys: await this.keys.list(p) };
  }

  @Delete(':keyId')
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke a key: refused at once on every replica' })
  @ApiAnswer(200, ApiKey)
  @ApiErrors(404)
  revoke(@CurrentPrincipal() p: Principal, @Param('keyId') keyId: string): Promise<ApiKey> {
    return this.keys.revoke(p, keyId);
  }
}
