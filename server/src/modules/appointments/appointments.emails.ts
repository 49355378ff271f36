import { formatDate, formatLongDate } from '@maillon/common/format';
import { formatVisitSlot, formatVisitSlotLong, formatVisitWindow, type VisitSlot } from '@maillon/common/visit-slot';
import type { OutgoingAttachment, OutgoingEmail } from '../../lib/outbox';

/** The appointment e-mails (issue 19), in French, as text and the same content in simple HTML. */

type Block = string | { link: string; label: string } | { list: string[] };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

function compose(email: { kind: string; to: string; subject: string; blocks: Block[]; attachments?: OutgoingAttachment[] }): OutgoingEmail {
  const text = email.blocks
    .map((block) => (typeof block === 'string' ? block : 'link' in block ? `${block.label} :\n${block.link}` : block.list.map((line) => `- ${line}`).join('\n')))
    .join('\n\n');
  const html = email.blocks
    .map((block) =>
      typeof block === 'string'
        ? `<p>${escapeHtml(block).replace(/\n/g, '<br>')}</p>`
        : 'link' in block
          ? `<p><a href="${escapeHtml(block.link)}">${escapeHtml(block.label)}</a></p>`
          : `<ul>${block.list.map((line) => `<li>${escapeHtml(line).replace(/\n/g, '<br>')}</li>`).join('')}</ul>`,
    )
    .join('\n');
  return { kind: email.kind, to: email.to, subject: email.subject, text, html, ...(email.attachments ? { attachments: email.attachments } : {}) };
}

export interface VisitFacts {
  missionTitle: string;
  visitType: string | null;
  defibrillatorModel: string | null;
  serialNumber: string | null;
  location: string | null;
  technicianFirstName: string;
  technicianLastName: string;
  technicianPhone: string | null;
  companyName: string | null;
}

function deviceText(visit: VisitFacts): string {
  return [visit.defibrillatorModel, visit.serialNumber ? `n° de série ${visit.serialNumber}` : null].filter(Boolean).join(', ');
}

function signature(productName: string, charityName: string): string {
  return `Cordialement,\n${productName} — ${charityName}`;
}

/**
 * "Informer client" (spec 01 §2, decision 005) and every later invitation: the visit's day and window, the
 * technician's name and phone, the personal link to confirm or propose another date, and the calendar invitation.
 */
export function visitInvitationEmail(options: {
  to: string;
  visit: VisitFacts;
  slot: VisitSlot;
  reason: 'informed' | 'updated' | 'accepted';
  linkUrl: string;
  invitation: Uint8Array;
  productName: string;
  charityName: string;
}): OutgoingEmail {
  const { visit, slot } = options;
  const day = formatDate(`${slot.date}T12:00:00Z`);
  const name = `${visit.technicianFirstName} ${visit.technicianLastName}`;
  const phone = visit.technicianPhone?.trim() || 'non renseigné';
  const device = deviceText(visit);
  const what = `${visit.visitType ? `la visite (${visit.visitType.toLowerCase()})` : 'la visite'} de votre défibrillateur${device ? ` (${device})` : ''}${visit.location ? `, situé ${visit.location}` : ''}`;
  const intro =
    options.reason === 'accepted'
      ? `Votre proposition est acceptée : notre technicien ${name} passera le ${day}, ${formatVisitWindow(slot)}, pour ${what}.`
      : options.reason === 'updated'
        ? `La date de passage a changé : notre technicien ${name} passera le ${day}, ${formatVisitWindow(slot)}, pour ${what}.`
        : `Notre technicien ${name} passera le ${day}, ${formatVisitWindow(slot)}, pour ${what}.`;
  const subject =
    options.reason === 'accepted'
      ? `Nouvelle date confirmée le ${day} — ${visit.missionTitle}`
      : options.reason === 'updated'
        ? `Nouvelle date de visite le ${day} — ${visit.missionTitle}`
        : `Visite de votre défibrillateur le ${day} — ${visit.missionTitle}`;
  return compose({
    kind: 'client-notification',
    to: options.to,
    subject,
    blocks: [
      'Bonjour,',
      intro,
      `Pour toute question ou pour convenir d’un créneau, vous pouvez le joindre au ${phone}.`,
      options.reason === 'accepted'
        ? 'Un empêchement ? Prévenez-nous avec ce lien personnel (valable jusqu’au jour de la visite)'
        : 'Merci de confirmer ce passage, ou de proposer une autre date si le site est fermé ce jour-là. Ce lien personnel est valable jusqu’au jour de la visite',
      { link: options.linkUrl, label: 'Confirmer ou proposer une autre date' },
      'L’invitation jointe ajoute la visite à votre agenda.',
      signature(options.productName, options.charityName),
    ],
    attachments: [{ fileName: 'visite.ics', contentType: 'text/calendar; charset=utf-8', disposition: 'calendar', content: options.invitation }],
  });
}

export function visitCancelledEmail(options: {
  to: string;
  visit: VisitFacts;
  slot: VisitSlot;
  cancellation: Uint8Array;
  productName: string;
  charityName: string;
}): OutgoingEmail {
  const day = formatDate(`${options.slot.date}T12:00:00Z`);
  return compose({
    kind: 'client-visit-cancelled',
    to: options.to,
    subject: `Visite annulée : ${options.visit.missionTitle} (${day})`,
    blocks: [
      'Bonjour,',
      `Le passage prévu le ${formatVisitSlot(options.slot)} pour la visite de votre défibrillateur${options.visit.location ? `, situé ${options.visit.location}` : ''}, est annulé.`,
      'Vous serez prévenu de la nouvelle date dès qu’un technicien l’aura fixée. L’annulation jointe retire la visite de votre agenda.',
      signature(options.productName, options.charityName),
    ],
    attachments: [{ fileName: 'annulation.ics', contentType: 'text/calendar; charset=utf-8', disposition: 'calendar', content: options.cancellation }],
  });
}

/** The technician refused the site's proposal: the site is told, with a new link. */
export function proposalRefusedEmail(options: {
  to: string;
  visit: VisitFacts;
  proposal: VisitSlot;
  slot: VisitSlot;
  linkUrl: string;
  productName: string;
  charityName: string;
}): OutgoingEmail {
  return compose({
    kind: 'client-proposal-refused',
    to: options.to,
    subject: `Votre proposition de date n’a pas pu être retenue — ${options.visit.missionTitle}`,
    blocks: [
      'Bonjour,',
      `Notre technicien ne peut malheureusement pas venir le ${formatVisitSlot(options.proposal)}. Le passage reste prévu le ${formatVisitSlot(options.slot)}.`,
      `Pour en convenir directement, vous pouvez le joindre au ${options.visit.technicianPhone?.trim() || 'numéro indiqué dans notre premier e-mail'}.`,
      'Confirmez ce passage ou proposez une autre date avec ce nouveau lien personnel',
      { link: options.linkUrl, label: 'Confirmer ou proposer une autre date' },
      signature(options.productName, options.charityName),
    ],
  });
}

export function siteConfirmedEmail(options: { to: string; visit: VisitFacts; slot: VisitSlot; dashboardUrl: string; productName: string }): OutgoingEmail {
  const day = formatDate(`${options.slot.date}T12:00:00Z`);
  return compose({
    kind: 'technician-site-confirmed',
    to: options.to,
    subject: `Passage confirmé par le site le ${day} — ${options.visit.missionTitle}`,
    blocks: [
      `Bonjour ${options.visit.technicianFirstName},`,
      `Le site « ${options.visit.missionTitle} » a confirmé votre passage du ${formatVisitSlotLong(options.slot)}.`,
      { link: options.dashboardUrl, label: 'Voir mes missions' },
      options.productName,
    ],
  });
}

export function siteProposedEmail(options: {
  to: string;
  visit: VisitFacts;
  slot: VisitSlot;
  proposal: VisitSlot;
  message: string | null;
  dashboardUrl: string;
  productName: string;
}): OutgoingEmail {
  return compose({
    kind: 'technician-site-proposal',
    to: options.to,
    subject: `Le site propose une autre date : ${formatVisitSlot(options.proposal)} — ${options.visit.missionTitle}`,
    blocks: [
      `Bonjour ${options.visit.technicianFirstName},`,
      `Le site « ${options.visit.missionTitle} » ne peut pas vous recevoir le ${formatVisitSlot(options.slot)} et propose le ${formatVisitSlotLong(options.proposal)}.`,
      ...(options.message ? [`Son message : « ${options.message} »`] : []),
      'Acceptez ou refusez cette proposition dans vos missions (onglet Recruté) : le site est prévenu de votre réponse.',
      { link: options.dashboardUrl, label: 'Répondre au site' },
      options.productName,
    ],
  });
}

export interface EveVisit {
  slot: VisitSlot;
  title: string;
  clientName: string | null;
  address: string | null;
  telSite: string | null;
  device: string;
  status: string | null;
  mapsUrl: string;
}

export function technicianEveEmail(options: { to: string; firstName: string; day: string; visits: EveVisit[]; dashboardUrl: string; productName: string }): OutgoingEmail {
  const count = options.visits.length;
  const dayText = formatDate(`${options.day}T12:00:00Z`);
  return compose({
    kind: 'reminder-technician-eve',
    to: options.to,
    subject: `Rappel : ${count === 1 ? '1 visite' : `${count} visites`} demain (${dayText})`,
    blocks: [
      `Bonjour ${options.firstName},`,
      `Demain, ${formatLongDate(`${options.day}T12:00:00Z`)}, ${count === 1 ? 'une visite est prévue' : `${count} visites sont prévues`} :`,
      {
        list: options.visits.map((visit) =>
          [
            `${visit.title}${visit.clientName ? ` (${visit.clientName})` : ''} — ${formatVisitWindow(visit.slot)}`,
            visit.device ? `Appareil : ${visit.device}` : null,
            `Adresse : ${visit.address || 'non renseignée'}`,
            `Téléphone du site : ${visit.telSite || 'non renseigné'}`,
            visit.status,
            `Y ALLER : ${visit.mapsUrl}`,
          ]
            .filter(Boolean)
            .join('\n'),
        ),
      },
      { link: options.dashboardUrl, label: 'Voir mes missions' },
      `Bonne route !\n${options.productName}`,
    ],
  });
}

export function siteEveEmail(options: {
  to: string;
  visit: VisitFacts;
  slot: VisitSlot;
  confirmed: boolean;
  linkUrl: string | null;
  productName: string;
  charityName: string;
}): OutgoingEmail {
  const who = `${options.visit.technicianFirstName}${options.visit.companyName ? ` (${options.visit.companyName})` : ''}`;
  return compose({
    kind: 'reminder-site-eve',
    to: options.to,
    subject: `Rappel : visite de votre défibrillateur demain — ${options.visit.missionTitle}`,
    blocks: [
      'Bonjour,',
      `Notre technicien ${who} passera demain, ${formatVisitSlotLong(options.slot)}, pour la visite de votre défibrillateur${options.visit.location ? `, situé ${options.visit.location}` : ''}.`,
      options.confirmed ? 'Merci d’avoir confirmé ce passage.' : 'Merci de vérifier que le site sera ouvert et le défibrillateur accessible.',
      ...(options.linkUrl ? ['Un empêchement ? Confirmez ou proposez une autre date avec ce lien personnel', { link: options.linkUrl, label: 'Confirmer ou proposer une autre date' } as Block] : []),
      signature(options.productName, options.charityName),
    ],
  });
}

export interface DueLot {
  title: string;
  deadline: Date | null;
  done: number;
  total: number;
  technician: string | null;
  overdue: boolean;
}

export function deadlineDigestEmail(options: { to: string; lots: DueLot[]; adminUrl: string; productName: string }): OutgoingEmail {
  const count = options.lots.length;
  return compose({
    kind: 'reminder-deadline-digest',
    to: options.to,
    subject: `${count === 1 ? '1 lot arrive' : `${count} lots arrivent`} à échéance dans les 7 jours`,
    blocks: [
      'Bonjour,',
      `${count === 1 ? 'Ce lot a' : 'Ces lots ont'} une échéance dans les 7 prochains jours (ou déjà dépassée) et des défibrillateurs encore à traiter :`,
      {
        list: options.lots.map(
          (lot) =>
            `${lot.title} — échéance le ${formatDate(lot.deadline)}${lot.overdue ? ' (dépassée)' : ''} — ${lot.done}/${lot.total} effectués — ${lot.technician ? `technicien : ${lot.technician}` : 'aucun technicien recruté'}`,
        ),
      },
      { link: options.adminUrl, label: 'Ouvrir les missions en cours' },
      options.productName,
    ],
  });
}
