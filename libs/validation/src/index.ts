export { IsMetadata, metadataProblem, METADATA_LIMITS } from './metadata.validator';
export { compileDto, type CompiledDto } from './compiled-validation';
export { stacked, OptionalRequestId, OptionalLanguage } from './field-rules';
