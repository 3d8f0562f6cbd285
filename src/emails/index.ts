// `medusa-payment-refpay/emails`: ready-made renderers for the plugin's notification templates.
export {
  formatEmailAmount,
  formatEmailDeadline,
  REFPAY_EMAIL_TEMPLATES,
  renderRefpayEmail,
  type RefpayEmailData,
  type RefpayEmailLocale,
  type RefpayEmailOptions,
  type RefpayEmailReference,
  type RefpayEmailTemplate,
  type RenderedEmail,
} from "./render-refpay-email"
