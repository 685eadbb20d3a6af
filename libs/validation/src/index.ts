export { IsMetadata, metadataProblem, METADATA_LIMITS } from './metadata.validator';
