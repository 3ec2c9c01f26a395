/**
 * Whether a text mixes writing systems, after UTS #39 §5.1 ("Mixed-Script Detection"): each
 * character's Script_Extensions, Common and Inherited (digits, `.`, `-`, combining marks) left
 * out, intersected over the text; empty means mixed. Han is augmented as UTS #39 says, so Japanese
 * (Han with Hiragana and Katakana), Korean (Han with Hangul) and Han with Bopomofo count as one
 * script. The consent page uses it for the Unicode form of an internationalized redirect host
 * (HD-10): `аpple.com` (Cyrillic а) mixes Cyrillic and Latin, `münchen.example` does not.
 */

/** Every script of Unicode 17 (Node 24), by the names `\p{Script_Extensions=…}` accepts. */
const SCRIPTS = `Adlam Ahom Anatolian_Hieroglyphs Arabic Armenian Avestan Balinese Bamum Bassa_Vah Batak
  Bengali Beria_Erfe Bhaiksuki Bopomofo Brahmi Braille Buginese Buhid Canadian_Aboriginal Carian
  Caucasian_Albanian Chakma Cham Cherokee Chorasmian Coptic Cuneiform Cypriot Cypro_Minoan Cyrillic
  Deseret Devanagari Dives_Akuru Dogra Duployan Egyptian_Hieroglyphs Elbasan Elymaic Ethiopic Garay
  Georgian Glagolitic Gothic Grantha Greek Gujarati Gunjala_Gondi Gurmukhi Gurung_Khema Han Hangul
  Hanifi_Rohingya Hanunoo Hatran Hebrew Hiragana Imperial_Aramaic Inscriptional_Pahlavi
  Inscriptional_Parthian Javanese Kaithi Kannada Katakana Kawi Kayah_Li Kharoshthi
  Khitan_Small_Script Khmer Khojki Khudawadi Kirat_Rai Lao Latin Lepcha Limbu Linear_A Linear_B Lisu
  Lycian Lydian Mahajani Makasar Malayalam Mandaic Manichaean Marchen Masaram_Gondi Medefaidrin
  Meetei_Mayek Mende_Kikakui Meroitic_Cursive Meroitic_Hieroglyphs Miao Modi Mongolian Mro Multani
  Myanmar Nabataean Nag_Mundari Nandinagari New_Tai_Lue Newa Nko Nushu Nyiakeng_Puachue_Hmong Ogham
  Ol_Chiki Ol_Onal Old_Hungarian Old_Italic Old_North_Arabian Old_Permic Old_Persian Old_Sogdian
  Old_South_Arabian Old_Turkic Old_Uyghur Oriya Osage Osmanya Pahawh_Hmong Palmyrene Pau_Cin_Hau
  Phags_Pa Phoenician Psalter_Pahlavi Rejang Runic Samaritan Saurashtra Sharada Shavian Siddham
  Sidetic SignWriting Sinhala Sogdian Sora_Sompeng Soyombo Sundanese Sunuwar Syloti_Nagri Syriac
  Tagalog Tagbanwa Tai_Le Tai_Tham Tai_Viet Tai_Yo Takri Tamil Tangsa Tangut Telugu Thaana Thai
  Tibetan Tifinagh Tirhuta Todhri Tolong_Siki Toto Tulu_Tigalari Ugaritic Vai Vithkuqi Wancho
  Warang_Citi Yezidi Yi Zanabazar_Square`.split(/\s+/);

const scx = (script: string): string => `\\p{Script_Extensions=${script}}`;

/** One test per script, plus the three augmented sets of UTS #39 §5.1 for Han. */
const SCRIPT_SETS: readonly RegExp[] = [
  ...SCRIPTS.map((script) => new RegExp(scx(script), 'u')),
  new RegExp(`[${scx('Han')}${scx('Hiragana')}${scx('Katakana')}]`, 'u'), // Jpan
  new RegExp(`[${scx('Han')}${scx('Hangul')}]`, 'u'), // Kore
  new RegExp(`[${scx('Han')}${scx('Bopomofo')}]`, 'u'), // Hanb
];

/** Characters used with every script: digits, punctuation, combining accents. */
const COMMON_OR_INHERITED = /[\p{Script_Extensions=Common}\p{Script_Extensions=Inherited}]/u;

export function mixesScripts(text: string): boolean {
  // The scripts every character so far belongs to; undefined until the first that has one.
  let shared: readonly RegExp[] | undefined;
  for (const character of text) {
    if (COMMON_OR_INHERITED.test(character)) continue;
    // A character in no known script (unassigned, or newer than this list) matches none, so
    // the text counts as mixed: the safe answer.
    shared = (shared ?? SCRIPT_SETS).filter((set) => set.test(character));
    if (shared.length === 0) return true;
  }
  return false;
}
