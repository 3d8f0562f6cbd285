import { en } from "./en"
import { ptPT } from "./pt-pt"

/**
 * The plugin's texts for Medusa's admin (found by the admin build as src/admin/i18n/index and deep-merged into the
 * dashboard's resources). The language codes are the dashboard's own: "en", and "ptPT" for Português (Portugal).
 * Every other language the dashboard offers falls back to English, as the dashboard itself does.
 */
export default {
  en: { translation: en },
  ptPT: { translation: ptPT },
}
