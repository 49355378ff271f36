import * as React from 'react';
import { CheckCircle2, ChevronsDown } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';

/** Spec §1 and §2 (terms dialog): the 8 articles technicians accept at registration. */
export const TERMS_TITLE = "Conditions Générales d'Utilisation et de Services";

const ARTICLES: { title: string; paragraphs: string[] }[] = [
  {
    title: 'Article 1 — Objet',
    paragraphs: [
      "La plateforme met en relation une association de sensibilisation aux défibrillateurs et des techniciens indépendants chargés de la maintenance, de l'installation et de la vérification de défibrillateurs automatisés externes (DAE).",
      "Les présentes conditions fixent les règles d'utilisation de la plateforme et de réalisation des missions proposées. La création d'un compte est gratuite.",
    ],
  },
  {
    title: 'Article 2 — Inscription et validation du profil',
    paragraphs: [
      "Le technicien s'inscrit avec des informations exactes et à jour. Chaque inscription est examinée par l'administrateur avant que le compte ne soit activé.",
      "Le compte peut être suspendu à tout moment, notamment en cas d'informations inexactes, de manquement aux présentes conditions ou de comportement mettant en cause la sécurité des personnes.",
    ],
  },
  {
    title: 'Article 3 — Formation obligatoire',
    paragraphs: [
      "Le technicien doit consulter l'ensemble des modules de formation mis à sa disposition avant de pouvoir postuler à un lot de missions.",
      "Lorsque de nouveaux modules sont publiés, il doit également les consulter pour conserver l'accès aux candidatures.",
    ],
  },
  {
    title: 'Article 4 — Déroulement des missions',
    paragraphs: [
      "Le technicien recruté sur un lot réalise chaque intervention avec soin, dans le respect des consignes du fabricant, des règles de sécurité et des délais indiqués.",
      "Il indique pour chaque défibrillateur la date de passage prévue, puis le marque comme effectué une fois l'intervention terminée et le rapport complété.",
    ],
  },
  {
    title: 'Article 5 — Expéditions de matériel',
    paragraphs: [
      "Le matériel nécessaire aux missions (électrodes, batteries, pièces) peut être expédié au technicien, par exemple en point relais.",
      "La responsabilité juridique du matériel expédié est transférée au technicien dès sa réception. Il en assure la bonne conservation jusqu'à son installation.",
    ],
  },
  {
    title: 'Article 6 — Communication',
    paragraphs: [
      "Le technicien utilise l'espace de commentaires du lot pour échanger avec l'administrateur.",
      "Il renseigne sa date de passage le plus tôt possible afin que le client puisse être prévenu de sa visite.",
    ],
  },
  {
    title: 'Article 7 — Rémunération',
    paragraphs: [
      'Les prix indiqués sont hors taxes. La rémunération correspond au prix du lot pour une réalisation complète de ses missions.',
      "Si le lot n'est que partiellement réalisé, la rémunération est réduite au prorata des défibrillateurs traités. Ce calcul est appliqué automatiquement à la fin du lot.",
    ],
  },
  {
    title: 'Article 8 — Modification des conditions',
    paragraphs: [
      "Ces conditions peuvent évoluer. Les nouvelles conditions sont portées à la connaissance du technicien et doivent être acceptées pour continuer à utiliser la plateforme.",
    ],
  },
];

/** Spec §9: the terms count as read once scrolled to within 10 px of the bottom. */
export const TERMS_SCROLL_THRESHOLD_PX = 10;

function isAtBottom(element: HTMLElement): boolean {
  return element.scrollHeight - element.scrollTop - element.clientHeight <= TERMS_SCROLL_THRESHOLD_PX;
}

interface TermsDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Called once the reader reaches the end; without it the dialog is a plain re-read ("Légal"). */
  onReadToEnd?: () => void;
  alreadyRead?: boolean;
}

export function TermsDialog({ open, onOpenChange, onReadToEnd, alreadyRead = false }: TermsDialogProps) {
  const [reachedEnd, setReachedEnd] = React.useState(alreadyRead);
  const notified = React.useRef(alreadyRead);
  const gated = Boolean(onReadToEnd);

  // Also runs when the text mounts: on a tall screen it may fit without any scrolling.
  const check = React.useCallback(
    (element: HTMLElement | null) => {
      if (!element || notified.current || !isAtBottom(element)) return;
      notified.current = true;
      setReachedEnd(true);
      onReadToEnd?.();
    },
    [onReadToEnd],
  );

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="flex max-h-[92dvh] max-w-2xl flex-col gap-4 overflow-hidden">
        <DialogHeader>
          <DialogTitle>{TERMS_TITLE}</DialogTitle>
          <DialogDescription>
            {gated ? 'Lisez les conditions jusqu’en bas pour pouvoir les accepter.' : 'Les conditions que vous avez acceptées à votre inscription.'}
          </DialogDescription>
        </DialogHeader>
        <div
          ref={check}
          onScroll={(event) => check(event.currentTarget)}
          tabIndex={0}
          role="region"
          aria-label="Texte des conditions générales"
          className="min-h-0 flex-1 overflow-y-auto rounded-md border bg-background p-4 text-sm leading-relaxed focus-visible:outline-2 focus-visible:outline-ring"
        >
          {ARTICLES.map((article) => (
            <section key={article.title} className="mb-4 last:mb-0">
              <h3 className="mb-1.5 font-semibold">{article.title}</h3>
              {article.paragraphs.map((paragraph) => (
                <p key={paragraph} className="mb-2 text-foreground/90 last:mb-0">
                  {paragraph}
                </p>
              ))}
            </section>
          ))}
        </div>
        {gated ? (
          <p aria-live="polite" className="flex items-center gap-2 text-sm text-muted-foreground">
            {reachedEnd ? (
              <>
                <CheckCircle2 className="size-4 text-success" aria-hidden="true" /> Vous avez lu les conditions jusqu’au bout.
              </>
            ) : (
              <>
                <ChevronsDown className="size-4" aria-hidden="true" /> Faites défiler jusqu’en bas pour continuer.
              </>
            )}
          </p>
        ) : null}
        <DialogFooter>
          <Button type="button" variant={gated ? 'default' : 'outline'} disabled={gated && !reachedEnd} onClick={() => onOpenChange(false)}>
            {gated ? "J'ai lu les conditions" : 'Fermer'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
