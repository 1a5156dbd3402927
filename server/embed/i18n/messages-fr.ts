/**
 * The embedded interface's words in French, addressing the reader formally (vous), as French
 * registrars do. Sentences with high punctuation are written through `french`, which puts the
 * no-break spaces French typography asks for; figures inside sentences are written as French writes
 * them (Intl), as the localizer writes amounts and dates.
 */
import { french } from "./french-typography.js";
import type { Messages } from "./messages-en.js";
import { plural } from "./plural.js";

const numbers = new Intl.NumberFormat("fr");
const MAX_TTL = numbers.format(86_400);

const years = (n: number) => plural("fr", n, { one: "# an", many: "# d’ans", other: "# ans" });
const records = (n: number) => plural("fr", n, { one: "# enregistrement", many: "# d’enregistrements", other: "# enregistrements" });
const recordsAdded = (n: number) =>
  plural("fr", n, { one: "# enregistrement ajouté", many: "# d’enregistrements ajoutés", other: "# enregistrements ajoutés" });
const characters = (n: number) => plural("fr", n, { one: "# caractère", many: "# de caractères", other: "# caractères" });

export const fr: Messages = {
  layout: {
    skipLink: "Aller au contenu",
    mainNavigation: "Menu principal",
    yourDomains: "Vos domaines",
    findDomain: "Trouver un domaine",
    signedInAs: "Connecté en tant que",
    sandboxBanner: french`Bac à sable : les achats et les renouvellements sont simulés ; aucun paiement n’est prélevé.`,
    logoAlt: (partner) => `Logo de ${partner}`,
  },
  controls: {
    errorPrefix: french`Erreur :`,
    problemTitle: "Il y a un problème",
    years,
  },
  statuses: { active: "Actif", pending: "En attente", expired: "Expiré", suspended: "Suspendu" },
  on: "Activé",
  off: "Désactivé",
  cancel: "Annuler",
  domains: {
    title: "Vos domaines",
    empty: "Vous n’avez pas encore de domaine.",
    findOne: "Trouver un domaine",
    status: "Statut",
    expires: "Expiration",
    dnsRecords: "Enregistrements DNS",
    recordCount: records,
    ofDomain: (name) => ` de ${name}`,
    settingsOf: (name) => `Paramètres de ${name}`,
    autoRenew: "Renouvellement automatique",
    whoisPrivacy: "Confidentialité WHOIS",
    renewFor: (name) => `Renouveler ${name} pour`,
    perYear: (price) => `${price} par an`,
    reviewRenewal: "Vérifier le renouvellement",
    cannotRenew: (name, status) => french`${name} ne peut pas être renouvelé tant que son statut est « ${status} ».`,
    renewedToTheLimit: (name) => `${name} est enregistré aussi loin à l’avance que les registres l’autorisent (10 ans).`,
    settingNotChanged: "Le paramètre n’a pas été modifié",
    changedSinceShown: french`Ce domaine a été modifié après l’affichage de la page (peut-être dans votre application) ; rien n’a donc été changé. Les interrupteurs indiquent maintenant ses paramètres actuels.`,
  },
  renewal: {
    title: (name) => `Renouveler ${name}`,
    intro: "Vérifiez le renouvellement avant de le confirmer.",
    domain: "Domaine",
    period: "Durée du renouvellement",
    pricePerYear: "Prix par an",
    total: "Total",
    runsUntil: "Enregistré jusqu’au",
    confirm: (total) => `Renouveler pour ${total}`,
    notRenewed: "Le domaine n’a pas été renouvelé",
    priceChanged: (price) =>
      french`Le prix du renouvellement est passé à ${price} par an depuis votre vérification. Rien n’a été prélevé ; vérifiez le nouveau total.`,
  },
  privacy: {
    title: (name) => french`Désactiver la confidentialité WHOIS pour ${name} ?`,
    warning: french`Sans la confidentialité WHOIS, les coordonnées avec lesquelles vous avez enregistré le domaine deviennent publiques dans les annuaires WHOIS et RDAP :`,
    published: ["votre nom et votre organisation", "votre adresse postale", "votre adresse e-mail", "votre numéro de téléphone"],
    consequence:
      "Tout le monde peut les consulter, y compris ceux qui collectent des adresses pour le spam. Des copies conservées par d’autres peuvent rester publiques après que vous l’avez réactivée.",
    confirm: "Désactiver la confidentialité WHOIS",
    keep: "La laisser activée",
  },
  search: {
    title: "Trouver un domaine",
    label: "Nom de domaine ou mot",
    hint: "Un nom comme adalovelace.fr, ou un mot comme adalovelace pour voir toutes les extensions",
    button: "Rechercher",
    available: "Disponible",
    taken: "Déjà pris",
    premium: "Nom premium",
    premiumHint: "Le registre vend les noms premium plus cher.",
    perYear: (price) => `${price} par an`,
    registerFor: "Enregistrer pour",
    reviewShort: "Vérifier l’achat",
    otherNames: "Autres noms",
    alternatives: "Autres noms disponibles",
    everyEnding: (word) => french`Noms avec « ${word} »`,
    endingsIntro: "Toutes les extensions que nous proposons, avec leur prix pour la première année.",
    choose: "Choisir",
    closedEnding: "Fermée à l’enregistrement",
    resultTitle: (name) => french`${name} : trouver un domaine`,
  },
  purchase: {
    title: "Vérifier votre achat",
    intro: "Vérifiez le nom, la durée et le total avant d’acheter.",
    domain: "Domaine",
    period: "Durée d’enregistrement",
    pricePerYear: "Prix par an",
    total: "Total",
    registeredUntil: "Enregistré jusqu’au",
    autoRenewNote: (price) =>
      french`Le renouvellement automatique est activé : le domaine se renouvelle chaque année pour ${price} jusqu’à ce que vous le désactiviez.`,
    premiumNote: french`Ce nom est un nom premium : le registre le vend au-dessus du prix standard.`,
    confirm: (total) => `Acheter pour ${total}`,
    change: "Modifier",
    notBought: "Le domaine n’a pas été acheté",
    priceChanged: (price) =>
      french`Le prix de ce nom est passé à ${price} par an depuis votre vérification. Rien n’a été prélevé ; vérifiez le nouveau total.`,
  },
  notices: {
    purchased: (name, charged, period, until) =>
      french`${name} est à vous. Nous avons prélevé ${charged} pour ${period} ; le domaine est enregistré jusqu’au ${until}.`,
    renewed: (name, charged, period, until) =>
      french`${name} est renouvelé pour ${period} : nous avons prélevé ${charged}, et le domaine est enregistré jusqu’au ${until}.`,
    autoRenewOn: (name, date, price) =>
      french`Le renouvellement automatique est activé pour ${name} : le domaine sera renouvelé le ${date} pour ${price}.`,
    autoRenewOff: (name, date) =>
      `Le renouvellement automatique est désactivé pour ${name}. Le domaine expire le ${date}, sauf si vous le renouvelez.`,
    privacyOn: (name) => french`La confidentialité WHOIS est activée pour ${name} : vos coordonnées sont masquées.`,
    privacyOff: (name) => french`La confidentialité WHOIS est désactivée pour ${name} : vos coordonnées sont publiques dans le WHOIS.`,
    recordAdded: (type, name, domain) => `L’enregistrement ${type} ${name} est ajouté à ${domain}.`,
    recordSaved: (type, name) => `L’enregistrement ${type} ${name} est mis à jour.`,
    recordDeleted: (type, name) => `L’enregistrement ${type} ${name} est supprimé.`,
    restore: "Le restaurer",
    restoreWithin: (minutes) =>
      `Vous pouvez le restaurer pendant ${plural("fr", minutes, { one: "# minute", many: "# de minutes", other: "# minutes" })}.`,
    recordRestored: (type, name) => `L’enregistrement ${type} ${name} est restauré.`,
    templateApplied: (title, count, domain) => french`${title} : ${recordsAdded(count)} à ${domain}.`,
  },
  dns: {
    back: "Vos domaines",
    status: "Statut",
    expires: "Expiration",
    autoRenew: "Renouvellement automatique",
    whoisPrivacy: "Confidentialité WHOIS",
    nameServers: "Serveurs de noms",
    records: "Enregistrements DNS",
    recordsCaption: (domain) => `Enregistrements DNS de ${domain}`,
    none: "Aucun enregistrement DNS pour l’instant. Ajoutez-en un ci-dessous, ou appliquez un modèle.",
    columns: { type: "Type", name: "Nom", content: "Valeur", ttl: "TTL", actions: "Actions" },
    sortedAscending: "trié de A à Z",
    sortedDescending: "trié de Z à A",
    priority: (priority) => `priorité ${priority}`,
    edit: "Modifier",
    delete: "Supprimer",
    recordLabel: (type, name) => `l’enregistrement ${type} ${name}`,
    add: "Ajouter un enregistrement",
    addButton: "Ajouter l’enregistrement",
    notAdded: "L’enregistrement n’a pas été ajouté",
    type: "Type",
    name: "Nom",
    nameHint: (domain) => `@ pour ${domain} lui-même, ou un nom comme www`,
    value: "Valeur",
    ttl: "TTL (secondes)",
    ttlHint: (defaultTtl) =>
      french`Durée pendant laquelle les résolveurs peuvent garder la réponse : de 60 à ${MAX_TTL} secondes. En général ${defaultTtl}.`,
    priorityLabel: "Priorité",
    priorityHint: "Les serveurs de messagerie au nombre le plus bas sont essayés en premier",
    typeLabels: {
      A: "Adresse IPv4",
      AAAA: "Adresse IPv6",
      CNAME: "Nom d’hôte cible",
      MX: "Serveur de messagerie",
      NS: "Serveur de noms",
      SRV: "Service",
      TXT: "Texte",
    },
    typeHints: {
      A: "Une adresse IPv4, comme 192.0.2.1",
      AAAA: "Une adresse IPv6, comme 2001:db8::1",
      CNAME: "Le nom d’hôte que ce nom désigne, comme example.net",
      MX: "Le nom d’hôte du serveur de messagerie, comme mail.example.com",
      NS: "Le nom d’hôte d’un serveur de noms, comme ns1.example.net",
      SRV: "Priorité, poids, port et cible, comme 10 5 5060 sip.example.com",
      TXT: french`Texte libre ; un texte de plus de 255 caractères est découpé en parties entre guillemets`,
    },
    ttlWords: (seconds) =>
      seconds % 3600 === 0
        ? plural("fr", seconds / 3600, { one: "# heure", many: "# d’heures", other: "# heures" })
        : seconds % 60 === 0
          ? plural("fr", seconds / 60, { one: "# minute", many: "# de minutes", other: "# minutes" })
          : plural("fr", seconds, { one: "# seconde", many: "# de secondes", other: "# secondes" }),
  },
  edit: {
    title: (type, name) => `Modifier l’enregistrement ${type} ${name}`,
    pageTitle: (type, domain) => french`Modifier l’enregistrement ${type} : ${domain}`,
    type: "Type",
    save: "Enregistrer les modifications",
    notSaved: "Les modifications n’ont pas été enregistrées",
    changedTitle: "Quelqu’un d’autre a modifié cet enregistrement pendant que vous le modifiiez",
    changedNothingSaved: french`Rien n’a été enregistré. L’enregistrement est maintenant :`,
    changedName: "Nom",
    changedValue: "Valeur",
    changedTtl: "TTL",
    changedKeep:
      "Vos modifications sont toujours dans le formulaire ci-dessous. Enregistrez à nouveau pour remplacer les valeurs actuelles par les vôtres, ou annulez pour les conserver.",
  },
  deletion: {
    title: (type, name) => french`Supprimer l’enregistrement ${type} ${name} ?`,
    intro: "Cet enregistrement cesse de répondre dès qu’il est supprimé. Vous pourrez le restaurer pendant quelques minutes.",
    confirm: "Supprimer l’enregistrement",
    changed: french`Cet enregistrement a été modifié après l’affichage de cette page ; il n’a donc pas été supprimé. Ses valeurs actuelles figurent ci-dessous ; supprimez-le à nouveau si vous le souhaitez toujours.`,
    tooLate: "Il est trop tard pour restaurer cet enregistrement. Ajoutez-le de nouveau ci-dessous si vous en avez besoin.",
  },
  templates: {
    title: "Appliquer un modèle",
    intro: french`Un modèle ajoute les enregistrements dont un service a besoin : tous ensemble, ou aucun.`,
    addsThese: french`Ajoute ces enregistrements :`,
    review: (title) => `Vérifier ${title}`,
    reviewTitle: (title, domain) => french`Ajouter les enregistrements ${title} à ${domain} ?`,
    reviewIntro: french`Ces enregistrements seront ajoutés, tous ensemble :`,
    apply: (count) => `Ajouter ${records(count)}`,
    notApplied: "Le modèle n’a pas été appliqué",
    titles: {
      "google-workspace": "Google Workspace",
      "microsoft-365": "Microsoft 365",
      fastmail: "Fastmail",
      "github-pages": "GitHub Pages",
      "web-host": "Hébergement web",
      "spf-dmarc": "SPF et DMARC",
    },
    variables: {
      mx_host: {
        label: "Serveur de messagerie Microsoft 365",
        hint: "Indiqué dans le centre d’administration Microsoft 365, comme example-com.mail.protection.outlook.com",
        missing: "Saisissez le serveur de messagerie que Microsoft 365 vous indique.",
      },
      github_user: {
        label: "Nom d’utilisateur ou d’organisation GitHub",
        hint: "Le nom dans votre adresse github.io",
        missing: "Saisissez votre nom d’utilisateur ou d’organisation GitHub.",
      },
      ip: { label: "Adresse IPv4 de votre serveur", hint: "Comme 192.0.2.1", missing: "Saisissez l’adresse IPv4 de votre serveur." },
      report_email: {
        label: "Adresse e-mail pour les rapports DMARC",
        hint: "Les serveurs de messagerie envoient ici leurs rapports sur votre domaine",
        missing: "Saisissez l’adresse e-mail qui reçoit les rapports DMARC.",
      },
      policy: {
        label: "Ce que font les destinataires des e-mails qui échouent aux vérifications",
        hint: french`Commencez par « rapport seulement », puis renforcez`,
        missing: "Choisissez ce que font les destinataires.",
      },
      spf_include: {
        label: "Serveurs autorisés à envoyer vos e-mails",
        hint: french`Mécanismes SPF, comme mx ou include:_spf.example.net ; mx par défaut`,
        missing: "Saisissez les serveurs autorisés à envoyer vos e-mails.",
      },
    },
    policyChoices: { none: "Rapport seulement (none)", quarantine: "Mettre en spam (quarantine)", reject: "Refuser (reject)" },
    placeholder: (label) => `[${label}]`,
  },
  errors: {
    name: "Saisissez @ pour le domaine lui-même, ou un nom fait de lettres, de chiffres et de traits d’union, comme www ou mail.",
    nameTooLong: (room) => french`Ce nom est trop long : avec le domaine, il peut compter au plus ${characters(room)}.`,
    cnameAtRoot:
      "Un enregistrement CNAME ne peut pas se trouver sur @, le domaine lui-même. Utilisez un nom comme www, ou un enregistrement A.",
    ttl: `Saisissez un TTL de 60 à ${MAX_TTL} secondes.`,
    content: {
      A: "Saisissez une adresse IPv4 comme 192.0.2.1.",
      AAAA: "Saisissez une adresse IPv6 comme 2001:db8::1.",
      CNAME: "Saisissez un nom d’hôte comme example.net.",
      MX: "Saisissez le nom d’hôte du serveur de messagerie, comme mail.example.com.",
      NS: "Saisissez le nom d’hôte d’un serveur de noms, comme ns1.example.net.",
      SRV: "Saisissez la priorité, le poids, le port et la cible séparés par des espaces, comme 10 5 5060 sip.example.com.",
      TXT: "Saisissez le texte. Mettez entre guillemets chaque partie d’un texte de plus de 255 caractères.",
    },
    priorityMissing: "Saisissez une priorité pour le serveur de messagerie, comme 10.",
    priorityNumber: "Saisissez la priorité sous forme de nombre entier, comme 10.",
    prioritySrv: "La priorité doit être le premier nombre de la valeur.",
    priorityUnused: "Seuls les enregistrements MX ont une priorité. Laissez ce champ vide.",
    duplicate: (type, name) => `${name} a déjà cet enregistrement ${type}.`,
    cnameTaken: (name) => french`${name} a déjà d’autres enregistrements ; il ne peut donc pas avoir aussi un enregistrement CNAME.`,
    cnameHere: (name) => french`${name} a un enregistrement CNAME ; il ne peut donc pas avoir d’autres enregistrements.`,
    spfTwice: (name) => `${name} a déjà un enregistrement SPF, et un nom ne peut en avoir qu’un. Modifiez plutôt celui-ci.`,
    dmarcTwice: (name) => `${name} a déjà un enregistrement DMARC, et un nom ne peut en avoir qu’un. Modifiez plutôt celui-ci.`,
    recordLimit: (max) => `Ce domaine a atteint le nombre maximal d’enregistrements (${max}). Supprimez-en un d’abord.`,
    templateRecord: (type, name, problem) => french`L’enregistrement ${type} ${name} du modèle : ${problem}`,
    variableFormat: {
      hostname: "Saisissez un nom d’hôte comme mail.example.com.",
      ipv4: "Saisissez une adresse IPv4 comme 192.0.2.1.",
      email: "Saisissez une adresse e-mail comme dmarc@example.com.",
      spf_mechanisms: "Saisissez des mécanismes SPF séparés par des espaces, comme mx include:_spf.example.net.",
      text: "Utilisez des lettres, des chiffres et des traits d’union isolés.",
    },
    variableTooLong: (max) => `Utilisez au plus ${characters(max)}.`,
    choose: "Choisissez l’une des options.",
    domainName: "Saisissez un nom de domaine comme adalovelace.fr, ou un mot à rechercher.",
    domainCharacters: french`Un nom de domaine peut contenir des lettres, des chiffres et des traits d’union ; celui-ci contient un caractère non autorisé.`,
    endingNotOffered: (tld) => `Nous ne proposons pas les noms en .${tld}. Essayez un mot seul pour voir toutes les extensions.`,
    endingClosed: (tld) => `Les nouveaux noms en .${tld} ne peuvent pas être enregistrés pour le moment.`,
    notAvailable: (name) => french`${name} n’est plus disponible : quelqu’un vient de l’enregistrer.`,
    years: "Choisissez de 1 à 10 ans.",
    renewAtMost: (name, max) =>
      max === 0
        ? `${name} est enregistré aussi loin à l’avance que les registres l’autorisent (10 ans).`
        : french`${name} peut être renouvelé pour ${years(max)} au plus : un enregistrement ne va pas au-delà de 10 ans à l’avance.`,
    notRenewable: (name, status) => french`${name} ne peut pas être renouvelé tant que son statut est « ${status} ».`,
    plainText: "Utilisez du texte simple, sans caractères de contrôle.",
    reload: "Ce formulaire n’a pas été envoyé tel que la page l’a créé. Rechargez la page et réessayez.",
    unexpected: "L’opération n’a pas pu aboutir. Rechargez la page et réessayez.",
  },
  pages: {
    sessionEndedTitle: "Session expirée",
    sessionEnded: "Cette session a expiré",
    sessionEndedBody:
      "Pour votre sécurité, cette page reste ouverte pendant une durée limitée. Rouvrez-la depuis l’application d’où vous venez.",
    notFoundTitle: "Introuvable",
    notFound: "Page introuvable",
    goToDomains: "Aller à vos domaines",
    refusedTitle: "Formulaire expiré",
    refused: "Ce formulaire n’a pas pu être envoyé",
    refusedBody: "Rechargez la page et réessayez. Si cela se reproduit, rouvrez cette page depuis l’application.",
    problemTitle: "Un problème est survenu",
    problemBody: "Réessayez dans un instant.",
    unavailableTitle: "Momentanément indisponible",
    unavailableBody: french`Le service redémarre. Rechargez cette page dans quelques secondes ; rien de ce que vous avez fait n’est perdu.`,
  },
};
