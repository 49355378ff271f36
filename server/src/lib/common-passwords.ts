// The most common passwords of public breach corpora (6 characters and more), refused at sign-up and change.
const COMMON = `123456 1234567 12345678 123456789 1234567890 password password1 password123 azerty azerty123 azertyuiop
qwerty qwerty123 qwertyuiop 111111 000000 123123 abc123 654321 666666 696969 777777 888888 987654321 123321
iloveyou princess sunshine football baseball welcome welcome1 monkey dragon master letmein shadow superman
michael jordan23 trustno1 admin123 administrateur motdepasse motdepasse1 soleil marseille doudou chouchou
loulou nicolas camille jetaime bonjour bonjour1 france chocolat 1q2w3e4r 1qaz2wsx zaq12wsx passw0rd p@ssw0rd
qazwsx 112233 121212 159753 147258369 123654 789456 456789 aaaaaa 11111111 00000000 12341234 1234qwer
football1 charlie maillon maillon1 defibrillateur secret secret1 changeme changeme1 test123 test1234`;

const COMMON_PASSWORDS = new Set(COMMON.split(/\s+/).filter(Boolean));

export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.toLowerCase());
}
