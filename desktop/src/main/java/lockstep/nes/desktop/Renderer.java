package lockstep.nes.desktop;

import static org.lwjgl.opengl.GL11.*;
import static org.lwjgl.opengl.GL12.GL_BGRA;
import static org.lwjgl.opengl.GL12.GL_CLAMP_TO_EDGE;
import static org.lwjgl.opengl.GL12.GL_UNSIGNED_INT_8_8_8_8_REV;

import java.awt.image.BufferedImage;
import java.nio.ByteBuffer;
import java.nio.IntBuffer;

import lockstep.nes.ppu.Ppu;
import org.lwjgl.system.MemoryUtil;

/**
 * Draws the picture and the overlay with OpenGL 1.1 calls (any driver, Mesa's software
 * renderer included): the 256x240 frame as a texture sampled nearest-neighbour onto a quad at a
 * whole-number scale (and the 8:7 pixel aspect when on), the overlay canvas blended over it.
 */
public final class Renderer {
    private final int pictureTex;
    private final int overlayTex;
    private final IntBuffer picture = MemoryUtil.memAllocInt(Ppu.WIDTH * Ppu.HEIGHT);
    private IntBuffer overlay;
    private int overlayW;
    private int overlayH;

    /** Where the picture was last drawn, in framebuffer pixels (top-left origin). */
    int px;
    int py;
    int pw;
    int ph;

    Renderer() {
        pictureTex = texture();
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, Ppu.WIDTH, Ppu.HEIGHT, 0, GL_BGRA, GL_UNSIGNED_INT_8_8_8_8_REV, (IntBuffer) null);
        overlayTex = texture();
    }

    private static int texture() {
        int t = glGenTextures();
        glBindTexture(GL_TEXTURE_2D, t);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
        return t;
    }

    /** Uploads a frame of 0xRRGGBB pixels. */
    void picture(int[] rgb) {
        picture.clear();
        for (int i = 0; i < Ppu.WIDTH * Ppu.HEIGHT; i++) {
            picture.put(i, rgb[i] | 0xFF000000);
        }
        glBindTexture(GL_TEXTURE_2D, pictureTex);
        glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, Ppu.WIDTH, Ppu.HEIGHT, GL_BGRA, GL_UNSIGNED_INT_8_8_8_8_REV, picture);
    }

    /** Uploads the overlay canvas (re-allocating the texture when its size changed). */
    void overlay(Canvas c) {
        glBindTexture(GL_TEXTURE_2D, overlayTex);
        if (overlay == null || overlayW != c.width || overlayH != c.height) {
            if (overlay != null) {
                MemoryUtil.memFree(overlay);
            }
            overlay = MemoryUtil.memAllocInt(c.width * c.height);
            overlayW = c.width;
            overlayH = c.height;
            glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, c.width, c.height, 0, GL_BGRA, GL_UNSIGNED_INT_8_8_8_8_REV, (IntBuffer) null);
        }
        overlay.clear();
        overlay.put(c.pixels).flip();
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, c.width, c.height, GL_BGRA, GL_UNSIGNED_INT_8_8_8_8_REV, overlay);
    }

    /**
     * Draws a frame into a framebuffer of {@code fbW} x {@code fbH}: black bars, the picture
     * centred at {@code scale} (x 8/7 horizontally when {@code aspect}), the overlay over the
     * whole framebuffer when {@code withOverlay}.
     */
    void draw(int fbW, int fbH, int scale, boolean aspect, boolean withPicture, boolean withOverlay) {
        glViewport(0, 0, fbW, fbH);
        glMatrixMode(GL_PROJECTION);
        glLoadIdentity();
        glOrtho(0, fbW, fbH, 0, -1, 1);
        glMatrixMode(GL_MODELVIEW);
        glLoadIdentity();
        glClearColor(0, 0, 0, 1);
        glClear(GL_COLOR_BUFFER_BIT);
        glEnable(GL_TEXTURE_2D);
        glColor4f(1, 1, 1, 1);
        pw = pictureWidth(scale, aspect);
        ph = Ppu.HEIGHT * scale;
        px = Math.max(0, (fbW - pw) / 2);
        py = Math.max(0, (fbH - ph) / 2);
        if (withPicture) {
            glDisable(GL_BLEND);
            glBindTexture(GL_TEXTURE_2D, pictureTex);
            quad(px, py, pw, ph);
        }
        if (withOverlay && overlay != null) {
            glEnable(GL_BLEND);
            glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
            glBindTexture(GL_TEXTURE_2D, overlayTex);
            quad(0, 0, overlayW * (fbW / overlayW), overlayH * (fbH / overlayH));
            glDisable(GL_BLEND);
        }
    }

    static int pictureWidth(int scale, boolean aspect) {
        return aspect ? (int) Math.round(Ppu.WIDTH * scale * 8.0 / 7.0) : Ppu.WIDTH * scale;
    }

    private static void quad(int x, int y, int w, int h) {
        glBegin(GL_QUADS);
        glTexCoord2f(0, 0);
        glVertex2f(x, y);
        glTexCoord2f(1, 0);
        glVertex2f(x + w, y);
        glTexCoord2f(1, 1);
        glVertex2f(x + w, y + h);
        glTexCoord2f(0, 1);
        glVertex2f(x, y + h);
        glEnd();
    }

    /** Reads the framebuffer being drawn (before the swap) as an image, top row first. */
    public static BufferedImage read(int fbW, int fbH) {
        ByteBuffer buf = MemoryUtil.memAlloc(fbW * fbH * 4);
        try {
            glPixelStorei(GL_PACK_ALIGNMENT, 1);
            glReadPixels(0, 0, fbW, fbH, GL_RGBA, GL_UNSIGNED_BYTE, buf);
            BufferedImage img = new BufferedImage(fbW, fbH, BufferedImage.TYPE_INT_RGB);
            for (int y = 0; y < fbH; y++) {
                int row = (fbH - 1 - y) * fbW * 4;
                for (int x = 0; x < fbW; x++) {
                    int i = row + x * 4;
                    int rgb = (buf.get(i) & 0xFF) << 16 | (buf.get(i + 1) & 0xFF) << 8 | (buf.get(i + 2) & 0xFF);
                    img.setRGB(x, y, rgb);
                }
            }
            return img;
        } finally {
            MemoryUtil.memFree(buf);
        }
    }

    void close() {
        glDeleteTextures(pictureTex);
        glDeleteTextures(overlayTex);
        MemoryUtil.memFree(picture);
        if (overlay != null) {
            MemoryUtil.memFree(overlay);
        }
    }
}
