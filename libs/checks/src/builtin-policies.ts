/** Policies every tenant has without writing one; a tenant's own policy of the same
 * id takes precedence. Version 0 marks them as built in. */
export const BUILTIN_POLICIES: Record<string, string> = {
  default: `name: Default
categories:
  sexual: { threshold: 0.8, action: block }
  hate: { threshold: 0.7, action: block }
  harassment: { threshold: 0.7, action: flag }
  violence: { threshold: 0.7, action: flag }
  self-harm: { threshold: 0.5, action: flag }
`,
};
