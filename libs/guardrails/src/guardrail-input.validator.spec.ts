import { domainFailure } from '@cds/testing';
import { validateActionAuthorizeInput, validateSkillVettingInput } from './guardrail-input.validator';

const errorOf = domainFailure;

describe('validateSkillVettingInput', () => {
  it('fills missing optional fields with their most cautious values and ignores endpoint fields', () => {
    expect(validateSkillVettingInput({ skillId: 's1', projectId: 'p', policy: {} })).toEqual({
      skillId: 's1',
      name: '',
      source: 'unknown',
      prompt: '',
      requestedPermissions: [],
      hasChecksum: false,
      signedPublisher: false,
      maintainerReputation: 'unknown',
    });
  });

  it('rejects unknown enum values with UNKNOWN_GUARDRAIL_VALUE and lists the allowed ones', () => {
    const e = errorOf(() => validateSkillVettingInput({ skillId: 's', source: 'npm' }));
    expect(e).toMatchObject({ kind: 'invalid', code: 'UNKNOWN_GUARDRAIL_VALUE', message: 'source "npm" is not a known value' });
    expect(e.details).toBe('field=source; allowed=official, verified_publisher, internal, local, github, public_marketplace, unknown');
    expect(errorOf(() => validateSkillVettingInput({ skillId: 's', maintainerReputation: 'great' })).code).toBe('UNKNOWN_GUARDRAIL_VALUE');
    expect(errorOf(() => validateSkillVettingInput({ skillId: 's', requestedPermissions: ['read_file', 'root'] })).message).toBe(
      'requestedPermissions[1] "root" is not a known value',
    );
  });

  it.each([
    [{}, 'skillId is required'],
    [{ skillId: '  ' }, 'skillId must not be empty'],
    [{ skillId: 5 }, 'skillId must be a string'],
    [{ skillId: 's', hasChecksum: 'yes' }, 'hasChecksum must be a boolean'],
    [{ skillId: 's', requestedPermissions: 'run_shell' }, 'requestedPermissions must be an array of strings'],
    [{ skillId: 's', requestedPermissions: Array(65).fill('read_file') }, 'requestedPermissions has too many entries (65, at most 64)'],
    [{ skillId: 's', prompt: 'x'.repeat(20_001) }, 'prompt is too long (20001 characters, at most 20000)'],
    [{ skillId: 's', name: 'a\nb' }, 'name contains control characters'],
  ])('rejects %j: %s', (input, message) => {
    expect(errorOf(() => validateSkillVettingInput(input))).toMatchObject({ code: 'INVALID_GUARDRAIL_REQUEST', message });
  });
});

describe('validateActionAuthorizeInput', () => {
  it('requires a known actionType', () => {
    expect(errorOf(() => validateActionAuthorizeInput({})).message).toBe('actionType is required');
    expect(errorOf(() => validateActionAuthorizeInput({ actionType: 'EXEC' }))).toMatchObject({
      code: 'UNKNOWN_GUARDRAIL_VALUE',
      message: 'actionType "EXEC" is not a known value',
    });
  });

  it('accepts multi-line commands and defaults the rest', () => {
    expect(validateActionAuthorizeInput({ actionType: 'exec', command: 'a\nb' })).toEqual({
      actionType: 'exec',
      command: 'a\nb',
      targetPath: '',
      requestedPermissions: [],
    });
  });

  it('caps command and path length and rejects NUL', () => {
    expect(errorOf(() => validateActionAuthorizeInput({ actionType: 'exec', command: 'x'.repeat(8193) })).message).toBe(
      'command is too long (8193 characters, at most 8192)',
    );
    expect(errorOf(() => validateActionAuthorizeInput({ actionType: 'file_read', targetPath: 'x'.repeat(4097) })).code).toBe('INVALID_GUARDRAIL_REQUEST');
    expect(errorOf(() => validateActionAuthorizeInput({ actionType: 'exec', command: 'ls\u0000' })).message).toBe('command contains control characters');
  });
});
