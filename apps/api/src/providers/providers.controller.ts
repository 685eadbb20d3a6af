import { Controller, Get, Inject } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { PROVIDER_REGISTRY, ProviderRegistry } from '@cds/providers';
import { RequireScope } from '../http/auth.decorators';
import { Endpoint } from '../openapi/api-docs.decorators';
import { ProviderList } from './providers.answers';

/** GET /v1/providers: the moderation providers this deployment knows, which are
 * configured, what they score, their circuit, and the defaults. */
@ApiTags('providers')
@Controller('v1/providers')
@RequireScope('policies')
export class ProvidersController {
  constructor(@Inject(PROVIDER_REGISTRY) private readonly providers: ProviderRegistry) {}

  @Get()
  @Endpoint('The moderation providers: configured or not, modalities, circuit state, and the default per modality', ProviderList)
  list(): ProviderList {
    return {
      providers: this.providers.describe(),
      defaults: { text: this.providers.forModality('text').name, image: this.providers.forModality('image').name },
    };
  }
}
