package lockstep.nes.core.cart;

/** The one place where mapper numbers become boards, and where their names are kept. */
public final class Mappers {
    private Mappers() {
    }

    /** Creates the board for {@code cart}, or refuses with "unsupported mapper N (NAME)". */
    public static Mapper create(Cartridge cart) throws RomFormatException {
        int sub = cart.submapper();
        return switch (cart.mapperNumber()) {
            case 0 -> new Nrom(cart);
            case 1 -> new Mmc1(cart, false);
            case 155 -> new Mmc1(cart, true);
            case 2 -> new UxRom(cart, UxRom.Variant.UNROM);
            case 94 -> new UxRom(cart, UxRom.Variant.UN1ROM);
            case 180 -> new UxRom(cart, UxRom.Variant.UNROM_180);
            case 3 -> new CnRom(cart);
            case 4 -> sub == 1 ? new Mmc3(cart, Mmc3.Revision.MMC6)
                    : new Mmc3(cart, sub == 4 ? Mmc3.Revision.MMC3A : Mmc3.Revision.MMC3B);
            case 118 -> new Mmc3(cart, Mmc3.Revision.MMC3B, true);
            case 206, 76, 88, 95, 154 -> new Namco108(cart);
            case 18 -> new JalecoSs88006(cart);
            case 19 -> new Namco163(cart);
            case 146 -> new Nina03(cart);
            case 7 -> new AxRom(cart);
            case 9 -> new Mmc2(cart, false);
            case 10 -> new Mmc2(cart, true);
            case 11 -> new ColorDreams(cart);
            case 21, 22, 23, 25 -> new Vrc2And4(cart);
            case 34 -> sub == 1 || (sub == 0 && cart.chr().length > 8192) ? new Nina001(cart) : new BnRom(cart);
            case 66 -> GxRom.gxRom(cart);
            case 69 -> new Fme7(cart);
            case 71 -> new Camerica(cart);
            case 79 -> new Nina03(cart);
            case 87 -> new Jaleco87(cart);
            case 140 -> GxRom.jalecoJf11(cart);
            case 232 -> new Quattro(cart);
            case 13 -> new CpRom(cart);
            case 16 -> new BandaiFcg(cart);
            case 24, 26 -> new Vrc6(cart);
            case 32 -> new IremG101(cart);
            case 33 -> new TaitoTc0190(cart);
            case 65 -> new IremH3001(cart);
            case 70, 152 -> new Bandai74161(cart);
            case 75 -> new Vrc1(cart);
            case 78 -> new Irem78(cart);
            case 89, 93 -> new Sunsoft2(cart);
            case 184 -> new Sunsoft1(cart);
            case 185 -> new CnRomProtect(cart);
            case 28 -> new Action53(cart);
            case 30 -> new Unrom512(cart);
            case 73 -> new Vrc3(cart);
            case 64 -> new Rambo1(cart);
            case 48 -> new TaitoTc0690(cart);
            case 67 -> new Sunsoft3(cart);
            case 68 -> new Sunsoft4(cart);
            case 80 -> new TaitoX1005(cart);
            default -> throw new RomFormatException(cart.name() + ": unsupported mapper " + describe(cart.mapperNumber()));
        };
    }

    /** True when {@link #create} has a board for this mapper number. */
    public static boolean isSupported(int mapper) {
        return switch (mapper) {
            case 0, 1, 2, 3, 4, 7, 9, 10, 11, 13, 16, 18, 19, 21, 22, 23, 24, 25, 26, 28, 30, 32, 33, 34, 48,
                 64, 65, 66, 67, 68, 69, 70, 71, 73, 75, 76, 78, 79, 80, 87, 88, 89, 93, 94, 95, 118, 140, 146,
                 152, 154, 155, 180, 184, 185, 206, 232 -> true;
            default -> false;
        };
    }

    /** "N (NAME)" or just "N" when the number has no known name. */
    public static String describe(int mapper) {
        String n = name(mapper);
        return n == null ? Integer.toString(mapper) : mapper + " (" + n + ")";
    }

    /** The usual name of an iNES mapper number (NESdev), or null. */
    public static String name(int mapper) {
        return switch (mapper) {
            case 0 -> "NROM";
            case 1 -> "MMC1";
            case 2 -> "UxROM";
            case 3 -> "CNROM";
            case 4 -> "MMC3/MMC6";
            case 5 -> "MMC5";
            case 7 -> "AxROM";
            case 9 -> "MMC2";
            case 10 -> "MMC4";
            case 11 -> "Color Dreams";
            case 13 -> "CPROM";
            case 15 -> "100-in-1 Contra Function 16";
            case 16 -> "Bandai FCG";
            case 18 -> "Jaleco SS88006";
            case 19 -> "Namco 163";
            case 21 -> "VRC4a/VRC4c";
            case 22 -> "VRC2a";
            case 23 -> "VRC2b/VRC4e/VRC4f";
            case 24 -> "VRC6a";
            case 25 -> "VRC4b/VRC4d/VRC2c";
            case 26 -> "VRC6b";
            case 28 -> "Action 53";
            case 30 -> "UNROM 512";
            case 32 -> "Irem G-101";
            case 33 -> "Taito TC0190";
            case 34 -> "BNROM/NINA-001";
            case 48 -> "Taito TC0690";
            case 64 -> "Tengen RAMBO-1";
            case 65 -> "Irem H3001";
            case 66 -> "GxROM";
            case 67 -> "Sunsoft-3";
            case 68 -> "Sunsoft-4";
            case 69 -> "Sunsoft FME-7";
            case 70 -> "Bandai 74161";
            case 71 -> "Camerica/Codemasters";
            case 73 -> "VRC3";
            case 75 -> "VRC1";
            case 76 -> "Namco 3446";
            case 78 -> "Irem 74HC161/32 (JF-16)";
            case 79 -> "NINA-03/NINA-06";
            case 80 -> "Taito X1-005";
            case 82 -> "Taito X1-017";
            case 85 -> "VRC7";
            case 86 -> "Jaleco JF-13";
            case 87 -> "Jaleco J87";
            case 88 -> "Namco 118 (CHR A16 split)";
            case 89 -> "Sunsoft-2 (Tenka no Goikenban)";
            case 93 -> "Sunsoft-2";
            case 94 -> "UN1ROM";
            case 95 -> "Namco 3425";
            case 97 -> "Irem TAM-S1";
            case 105 -> "NES-EVENT";
            case 113 -> "NINA-03/06 multicart";
            case 118 -> "TxSROM";
            case 119 -> "TQROM";
            case 140 -> "Jaleco JF-11/JF-14";
            case 146 -> "Sachen 3015 (NINA-03/06 clone)";
            case 154 -> "Namco 3453 (Devil Man)";
            case 152 -> "Bandai 74161 (single-screen)";
            case 155 -> "MMC1A";
            case 180 -> "UNROM (Crazy Climber)";
            case 184 -> "Sunsoft-1";
            case 185 -> "CNROM with CHR disable";
            case 206 -> "Namco 118/DxROM";
            case 210 -> "Namco 175/340";
            case 228 -> "Action 52";
            case 232 -> "Camerica Quattro";
            default -> null;
        };
    }
}
