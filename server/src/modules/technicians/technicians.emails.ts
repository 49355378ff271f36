import type { OutgoingEmail } from '../../lib/outbox';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

function paragraphs(lines: string[]): string {
  return lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n');
}

export function registrationReceivedEmail(options: { to: string; firstName: string; productName: string; loginUrl: string }): OutgoingEmail {
  const lines = [
    `Bonjour ${options.firstName},`,
    `Nous avons bien reçu votre inscription sur ${options.productName}. Elle est en cours de modération : vous recevrez un email dès que votre compte sera validé.`,
    'En attendant, vous pouvez déjà vous connecter pour suivre la formation obligatoire :',
  ];
  return {
    kind: 'registration-received',
    to: options.to,
    subject: `${options.productName} — inscription reçue`,
    text: `${lines.join('\n\n')}\n${options.loginUrl}\n\nMerci de rejoindre la chaîne de survie.`,
    html: `${paragraphs(lines)}\n<p><a href="${escapeHtml(options.loginUrl)}">${escapeHtml(options.loginUrl)}</a></p>\n<p>Merci de rejoindre la chaîne de survie.</p>`,
  };
}

export function passwordResetEmail(options: { to: string; productName: string; resetUrl: string }): OutgoingEmail {
  const intro = [
    'Bonjour,',
    `Une réinitialisation du mot de passe de votre compte ${options.productName} a été demandée. Pour choisir un nouveau mot de passe, ouvrez ce lien :`,
  ];
  const outro = [
    "Ce lien est valable 1 heure et ne peut servir qu'une seule fois.",
    "Si vous n'êtes pas à l'origine de cette demande, ignorez cet email : votre mot de passe reste inchangé.",
  ];
  return {
    kind: 'password-reset',
    to: options.to,
    subject: `${options.productName} — réinitialisation de votre mot de passe`,
    text: `${intro.join('\n\n')}\n${options.resetUrl}\n\n${outro.join('\n\n')}`,
    html: `${paragraphs(intro)}\n<p><a href="${escapeHtml(options.resetUrl)}">Choisir un nouveau mot de passe</a></p>\n${paragraphs(outro)}`,
  };
}
