/**
 * A sentence of the server's for the admin page, as a code and the values it names (URLs, codes, numbers): the admin
 * says it in its language (src/admin/i18n, through src/admin/lib/server-texts.ts). The connection test's texts and
 * "Send a test event"'s are such texts, each with its own list of codes.
 */
export interface CodedText<Code extends string> {
  code: Code
  params: Record<string, string | number>
}

export function codedText<Code extends string>(
  code: Code,
  params: Record<string, string | number> = {}
): CodedText<Code> {
  return { code, params }
}
