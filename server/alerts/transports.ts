// The two ways an alert leaves: SMTP through nodemailer, and SMS through a Twilio-compatible REST API.
// Both are configured by the operator (server/config.ts); neither is reachable from user input.
import nodemailer, { type Transporter } from "nodemailer";
import { config } from "../config";

export function emailAvailable(): boolean {
  return config().smtp !== undefined;
}

export function smsAvailable(): boolean {
  return config().sms !== undefined;
}

/** A file sent with a mail (a scheduled report's PDF). */
export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

export interface Mailer {
  /** `to`: one address, or several separated by commas. */
  send(to: string, subject: string, text: string, attachments?: MailAttachment[]): Promise<void>;
}

/** The process's SMTP sender (SMTP_*), built by the composition root; its transport is made on the first mail. */
export function createMailer(): Mailer {
  let transport: Transporter | undefined;
  return {
    async send(to, subject, text, attachments = []) {
      const smtp = config().smtp;
      if (!smtp) throw new Error("E-mail is not configured (SMTP_HOST and SMTP_FROM)");
      transport ??= nodemailer.createTransport({
        host: smtp.host,
        port: smtp.port,
        secure: smtp.secure,
        auth: smtp.user ? { user: smtp.user, pass: smtp.password ?? "" } : undefined,
        connectionTimeout: 10_000,
        socketTimeout: 20_000,
      });
      await transport.sendMail({ from: smtp.from, to, subject, text, attachments });
    },
  };
}

export async function sendSms(to: string, body: string): Promise<void> {
  const sms = config().sms;
  if (!sms) throw new Error("SMS is not configured (SMS_ACCOUNT_SID, SMS_AUTH_TOKEN and SMS_FROM)");
  const url = `${sms.apiUrl}/2010-04-01/Accounts/${encodeURIComponent(sms.accountSid)}/Messages.json`;
  const response = await fetch(url, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${sms.accountSid}:${sms.authToken}`).toString("base64")}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ To: to, From: sms.from, Body: body.slice(0, 1600) }),
    signal: AbortSignal.timeout(15_000),
  });
  if (!response.ok) {
    // The provider's error text helps the operator; it never holds our token.
    throw new Error(`SMS provider answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  }
}
