package lockstep.nes.core.cart;

import java.util.function.Function;
import lockstep.nes.core.cart.bandai.Bandai74161;
import lockstep.nes.core.cart.fds.FdsBoard;
import lockstep.nes.core.cart.bandai.BandaiFcg;
import lockstep.nes.core.cart.irem.Irem78;
import lockstep.nes.core.cart.irem.IremG101;
import lockstep.nes.core.cart.irem.IremH3001;
import lockstep.nes.core.cart.jaleco.Jaleco87;
import lockstep.nes.core.cart.jaleco.JalecoSs88006;
import lockstep.nes.core.cart.konami.Vrc1;
import lockstep.nes.core.cart.konami.Vrc2And4;
import lockstep.nes.core.cart.konami.Vrc3;
import lockstep.nes.core.cart.konami.Vrc6;
import lockstep.nes.core.cart.konami.Vrc7;
import lockstep.nes.core.cart.namco.Namco108;
import lockstep.nes.core.cart.namco.Namco163;
import lockstep.nes.core.cart.nintendo.AxRom;
import lockstep.nes.core.cart.nintendo.BnRom;
import lockstep.nes.core.cart.nintendo.CnRom;
import lockstep.nes.core.cart.nintendo.CnRomProtect;
import lockstep.nes.core.cart.nintendo.CpRom;
import lockstep.nes.core.cart.nintendo.GxRom;
import lockstep.nes.core.cart.nintendo.Mmc1;
import lockstep.nes.core.cart.nintendo.NesEvent;
import lockstep.nes.core.cart.nintendo.Mmc2;
import lockstep.nes.core.cart.nintendo.Mmc3;
import lockstep.nes.core.cart.nintendo.Mmc5;
import lockstep.nes.core.cart.nintendo.Nrom;
import lockstep.nes.core.cart.nintendo.UxRom;
import lockstep.nes.core.cart.other.Action53;
import lockstep.nes.core.cart.other.Camerica;
import lockstep.nes.core.cart.other.ColorDreams;
import lockstep.nes.core.cart.other.Nina001;
import lockstep.nes.core.cart.other.Nina03;
import lockstep.nes.core.cart.other.Quattro;
import lockstep.nes.core.cart.other.Unrom512;
import lockstep.nes.core.cart.sunsoft.Fme7;
import lockstep.nes.core.cart.sunsoft.Sunsoft1;
import lockstep.nes.core.cart.sunsoft.Sunsoft2;
import lockstep.nes.core.cart.sunsoft.Sunsoft3;
import lockstep.nes.core.cart.sunsoft.Sunsoft4;
import lockstep.nes.core.cart.taito.TaitoTc0190;
import lockstep.nes.core.cart.taito.TaitoTc0690;
import lockstep.nes.core.cart.taito.TaitoX1005;
import lockstep.nes.core.cart.tengen.Rambo1;

/**
 * The one table of mapper numbers: each number's usual name (NESdev) and, for a supported one,
 * how its board is built. {@link #create}, {@link #isSupported} and {@link #name} all read it.
 */
public final class Mappers {
    private Mappers() {
    }

    /** A mapper number, its name, and its board's constructor (null when not supported). */
    private record Board(int number, String name, Function<Cartridge, Mapper> create) {
    }

    private static Board board(int number, String name, Function<Cartridge, Mapper> create) {
        return new Board(number, name, create);
    }

    /** A number with a known name and no board here. */
    private static Board named(int number, String name) {
        return new Board(number, name, null);
    }

    /** MMC3 by NES 2.0 submapper: 1 the MMC6, 4 the MMC3A ("old" IRQ), else the MMC3B. */
    private static Mapper mmc3(Cartridge cart) {
        final int sub = cart.submapper();
        return sub == 1 ? new Mmc3(cart, Mmc3.Revision.MMC6)
                : new Mmc3(cart, sub == 4 ? Mmc3.Revision.MMC3A : Mmc3.Revision.MMC3B);
    }

    /** Mapper 34: NINA-001 for submapper 1, or without a submapper when CHR is over 8 KiB; else BNROM. */
    private static Mapper mapper34(Cartridge cart) {
        final int sub = cart.submapper();
        return sub == 1 || (sub == 0 && cart.chr().length > 8192) ? new Nina001(cart) : new BnRom(cart);
    }

    /** In mapper-number order (checked when the table is built). */
    private static final Board[] TABLE = {
        board(0, "NROM", Nrom::new),
        board(1, "MMC1", c -> new Mmc1(c, false)),
        board(2, "UxROM", c -> new UxRom(c, UxRom.Variant.UNROM)),
        board(3, "CNROM", CnRom::new),
        board(4, "MMC3/MMC6", Mappers::mmc3),
        board(5, "MMC5", Mmc5::new),
        board(7, "AxROM", AxRom::new),
        board(9, "MMC2", c -> new Mmc2(c, false)),
        board(10, "MMC4", c -> new Mmc2(c, true)),
        board(11, "Color Dreams", ColorDreams::new),
        board(13, "CPROM", CpRom::new),
        named(15, "100-in-1 Contra Function 16"),
        board(16, "Bandai FCG", BandaiFcg::new),
        board(18, "Jaleco SS88006", JalecoSs88006::new),
        board(19, "Namco 163", Namco163::new),
        board(FdsBoard.MAPPER, "Famicom Disk System", FdsBoard::new),
        board(21, "VRC4a/VRC4c", Vrc2And4::new),
        board(22, "VRC2a", Vrc2And4::new),
        board(23, "VRC2b/VRC4e/VRC4f", Vrc2And4::new),
        board(24, "VRC6a", Vrc6::new),
        board(25, "VRC4b/VRC4d/VRC2c", Vrc2And4::new),
        board(26, "VRC6b", Vrc6::new),
        board(28, "Action 53", Action53::new),
        board(30, "UNROM 512", Unrom512::new),
        board(32, "Irem G-101", IremG101::new),
        board(33, "Taito TC0190", TaitoTc0190::new),
        board(34, "BNROM/NINA-001", Mappers::mapper34),
        board(48, "Taito TC0690", TaitoTc0690::new),
        board(64, "Tengen RAMBO-1", Rambo1::new),
        board(65, "Irem H3001", IremH3001::new),
        board(66, "GxROM", GxRom::gxRom),
        board(67, "Sunsoft-3", Sunsoft3::new),
        board(68, "Sunsoft-4", Sunsoft4::new),
        board(69, "Sunsoft FME-7", Fme7::new),
        board(70, "Bandai 74161", Bandai74161::new),
        board(71, "Camerica/Codemasters", Camerica::new),
        board(73, "VRC3", Vrc3::new),
        board(75, "VRC1", Vrc1::new),
        board(76, "Namco 3446", Namco108::new),
        board(78, "Irem 74HC161/32 (JF-16)", Irem78::new),
        board(79, "NINA-03/NINA-06", Nina03::new),
        board(80, "Taito X1-005", TaitoX1005::new),
        named(82, "Taito X1-017"),
        board(85, "VRC7", Vrc7::new),
        named(86, "Jaleco JF-13"),
        board(87, "Jaleco J87", Jaleco87::new),
        board(88, "Namco 118 (CHR A16 split)", Namco108::new),
        board(89, "Sunsoft-2 (Tenka no Goikenban)", Sunsoft2::new),
        board(93, "Sunsoft-2", Sunsoft2::new),
        board(94, "UN1ROM", c -> new UxRom(c, UxRom.Variant.UN1ROM)),
        board(95, "Namco 3425", Namco108::new),
        named(97, "Irem TAM-S1"),
        board(105, "NES-EVENT", NesEvent::new),
        named(113, "NINA-03/06 multicart"),
        board(118, "TxSROM", c -> new Mmc3(c, Mmc3.Revision.MMC3B, true)),
        board(119, "TQROM", Mmc3::tqrom),
        board(140, "Jaleco JF-11/JF-14", GxRom::jalecoJf11),
        board(146, "Sachen 3015 (NINA-03/06 clone)", Nina03::new),
        board(152, "Bandai 74161 (single-screen)", Bandai74161::new),
        board(154, "Namco 3453 (Devil Man)", Namco108::new),
        board(155, "MMC1A", c -> new Mmc1(c, true)),
        board(180, "UNROM (Crazy Climber)", c -> new UxRom(c, UxRom.Variant.UNROM_180)),
        board(184, "Sunsoft-1", Sunsoft1::new),
        board(185, "CNROM with CHR disable", CnRomProtect::new),
        board(206, "Namco 118/DxROM", Namco108::new),
        named(210, "Namco 175/340"),
        named(228, "Action 52"),
        board(232, "Camerica Quattro", Quattro::new),
    };

    /** {@link #TABLE} by mapper number (null where a number is not in it). */
    private static final Board[] BY_NUMBER = byNumber();

    private static Board[] byNumber() {
        Board[] out = new Board[256];
        int last = -1;
        for (Board b : TABLE) {
            if (b.number() <= last || b.number() > 255) {
                throw new IllegalStateException("mapper table out of order at " + b.number());
            }
            last = b.number();
            out[b.number()] = b;
        }
        return out;
    }

    private static Board entry(int mapper) {
        return mapper >= 0 && mapper < BY_NUMBER.length ? BY_NUMBER[mapper] : null;
    }

    /** Creates the board for {@code cart}, or refuses with "unsupported mapper N (NAME)". */
    public static Mapper create(Cartridge cart) throws RomFormatException {
        Board b = entry(cart.mapperNumber());
        if (b == null || b.create() == null) {
            throw new RomFormatException(cart.name() + ": unsupported mapper " + describe(cart.mapperNumber()));
        }
        return b.create().apply(cart);
    }

    /** True when {@link #create} has a board for this mapper number. */
    public static boolean isSupported(int mapper) {
        Board b = entry(mapper);
        return b != null && b.create() != null;
    }

    /** "N (NAME)" or just "N" when the number has no known name. */
    public static String describe(int mapper) {
        String n = name(mapper);
        return n == null ? Integer.toString(mapper) : mapper + " (" + n + ")";
    }

    /** The usual name of an iNES mapper number (NESdev), or null. */
    public static String name(int mapper) {
        Board b = entry(mapper);
        return b == null ? null : b.name();
    }
}
