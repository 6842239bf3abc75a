/* library_words.c - positions from a library's real hash words (library_words.h). Each
 * library's words are defined in its own file under src/libraries/.
 */
#include "libraries/library_words.h"

#include "rates/sizing.h"

void library_words_positions(const library_words_t *lw, const scheme_t *s,
                             const probe_geom_t *g, const rkey_t *key, uint64_t *pos)
{
    uint64_t w[SIZING_MAX_K > SCHEME_MAX_WORDS ? SIZING_MAX_K : SCHEME_MAX_WORDS];
    lw->words(key, g, w);
    if (lw->drawn)
        s->positions_drawn(g, NULL, w, pos);
    else
        s->positions(g, w, pos);
}
