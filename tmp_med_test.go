package robotstxt
import ("testing";"os";"path/filepath")
func BenchmarkTmpMedium(b *testing.B){
 files,_:=filepath.Glob("../shared/corpus/real/*.txt")
 var ds [][]byte; tot:=0
 for _,f:=range files{ d,_:=os.ReadFile(f); if len(d)>=1000 && len(d)<=8000 {ds=append(ds,d); tot+=len(d)} }
 b.SetBytes(int64(tot)); b.ReportAllocs()
 for b.Loop(){ for _,d:=range ds { robotsSink=Parse(d) } }
}
